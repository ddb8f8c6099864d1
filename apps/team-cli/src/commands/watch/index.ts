import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';

/**
 * `team watch [run]`: prints every event of the run as one JSON line, from the start of
 * the log, then live; returns once the run is stopped, or on Ctrl-C.
 */
export const watchCommand: CommandHandler = async (context, [run]) => {
  const runId = await resolveRunId(context, run);
  const { openRun } = await import('@teamkit/team-core');
  const handle = openRun({ home: context.home, runId, store: context.store });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let wake: (() => void) | undefined;
  // A change anywhere in the run wakes the loop early; the loop also reads on a timer.
  const stopWatching = await handle.store
    .watch(handle.keys.root, () => wake?.(), { onError: () => {} })
    .catch(() => undefined);
  controller.signal.addEventListener('abort', () => wake?.(), { once: true });
  let cursor: string | undefined;
  try {
    while (!controller.signal.aborted) {
      const read = await handle.events.readAfter(cursor);
      cursor = read.cursor;
      for (const event of read.events) process.stdout.write(`${JSON.stringify(event)}\n`);
      const state = await handle.state.read().catch(() => undefined);
      if (state === undefined || state.status === 'deleted' || state.status === 'failed') break;
      // Not node:timers/promises: the watch ends this wait early from a callback.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 500);
        wake = () => {
          clearTimeout(timer);
          setTimeout(resolve, 30);
        };
      });
      wake = undefined;
    }
  } finally {
    await stopWatching?.();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return undefined;
};
