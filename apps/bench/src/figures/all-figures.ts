import type { FigureDefinition } from '../figure.js';
import { storeClaimFigure } from '../store-figures/store-claim.js';
import { storeSendFigure } from '../store-figures/store-send.js';
import { storeWatchFigure } from '../store-figures/store-watch.js';
import { claimFigure } from './claim.js';
import { cliStartFigure } from './cli-start.js';
import { mcpCallFigure } from './mcp-call.js';
import { pollFigure } from './poll.js';
import { readyFigure } from './ready.js';
import { sendFigure } from './send.js';
import { sendConcurrentFigure } from './send-concurrent.js';
import { treeWatchFigure } from './tree-watch.js';
import { uiLatencyFigure } from './ui-latency.js';
import { watchFigure } from './watch.js';

/** Every figure, in the order the table shows them. */
export const ALL_FIGURES: readonly FigureDefinition[] = [
  sendFigure,
  sendConcurrentFigure,
  claimFigure,
  pollFigure,
  watchFigure,
  treeWatchFigure,
  readyFigure,
  cliStartFigure,
  mcpCallFigure,
  uiLatencyFigure,
  storeSendFigure,
  storeClaimFigure,
  storeWatchFigure,
];
