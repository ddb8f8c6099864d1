import type { FigureDefinition } from '../figure.js';
import { claimFigure } from './claim.js';
import { cliStartFigure } from './cli-start.js';
import { mcpCallFigure } from './mcp-call.js';
import { pollFigure } from './poll.js';
import { readyFigure } from './ready.js';
import { sendFigure } from './send.js';
import { sendConcurrentFigure } from './send-concurrent.js';
import { uiLatencyFigure } from './ui-latency.js';
import { watchFigure } from './watch.js';

/** Every figure, in the order the table shows them. */
export const ALL_FIGURES: readonly FigureDefinition[] = [
  sendFigure,
  sendConcurrentFigure,
  claimFigure,
  pollFigure,
  watchFigure,
  readyFigure,
  cliStartFigure,
  mcpCallFigure,
  uiLatencyFigure,
];
