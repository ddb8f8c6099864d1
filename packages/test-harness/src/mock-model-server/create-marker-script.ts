import { findUserTexts } from './find-last-tool-result.js';
import type { MockModelRequest, MockTurn, MockTurnResolver } from './mock-model-script.js';

const MARKER = /\[turn:([\w-]+)\]/g;

function offersTools(request: MockModelRequest): boolean {
  const tools = request.body.tools;
  return Array.isArray(tools) && tools.length > 0;
}

function newestMarker(request: MockModelRequest): string | undefined {
  let marker: string | undefined;
  for (const text of findUserTexts(request)) {
    for (const match of text.matchAll(MARKER)) marker = match[1];
  }
  return marker;
}

/** Options of {@link createMarkerScript}. */
export interface MarkerScriptOptions {
  /** The answer to requests that offer no tools (titles, summaries); `"Scripted side answer"` by default. */
  sideAnswer?: MockTurn;
}

/**
 * A script for agent CLIs that play several turns, each started by a prompt that contains
 * `[turn:<name>]`: the requests of that turn get the steps of `turns[name]` one at a time,
 * then the text `"<name> done"`. The newest marker in the conversation wins, so a resumed
 * conversation plays its new turn's steps, whatever flavour of API the CLI speaks.
 * Requests that offer no tools (OpenCode's title request) get `sideAnswer` and use no step;
 * a request with no marker gets the server's fallback turn.
 */
export function createMarkerScript(
  turns: Record<string, readonly MockTurn[]>,
  options: MarkerScriptOptions = {},
): MockTurnResolver {
  const used = new Map<string, number>();
  const sideAnswer = options.sideAnswer ?? { text: 'Scripted side answer' };
  return (request) => {
    if (!offersTools(request)) return sideAnswer;
    const marker = newestMarker(request);
    if (marker === undefined) return undefined;
    const step = used.get(marker) ?? 0;
    used.set(marker, step + 1);
    return turns[marker]?.[step] ?? { text: `${marker} done` };
  };
}

/** The recorded requests whose conversation carries `[turn:<marker>]`, oldest first. */
export function requestsWithMarker(
  requests: readonly MockModelRequest[],
  marker: string,
): MockModelRequest[] {
  return requests.filter((request) =>
    findUserTexts(request).some((text) => text.includes(`[turn:${marker}]`)),
  );
}
