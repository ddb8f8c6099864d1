import { watch } from 'node:fs';
import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';

/**
 * `team watch [run]`: prints every event of the run as one JSON line, from the start of
 * the log, then live; returns once the run is stopped, or on Ctrl-C.
 */
export const watchCommand: CommandHandler = async (context, [run]) => {
  const runId = await resolveRunId(context, run);
  const { createPathStore, readRunEvents, readRunState, runPaths } = await import(
    '@teamkit/team-core'
  );
  const store = createPathStore();
  const paths = runPaths(context.home, runId);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let wake: (() => void) | undefined;
  let watcher: ReturnType<typeof watch> | undefined;
  try {
    watcher = watch(paths.root, () => wake?.());
    watcher.on('error', () => {});
  } catch {
    watcher = undefined;
  }
  controller.signal.addEventListener('abort', () => wake?.(), { once: true });
  let printed = 0;
  try {
    while (!controller.signal.aborted) {
      const { events } = await readRunEvents(store, paths.events);
      for (const event of events.slice(printed)) process.stdout.write(`${JSON.stringify(event)}\n`);
      printed = Math.max(printed, events.length);
      const state = await readRunState(context.home, runId).catch(() => undefined);
      if (state === undefined || state.status === 'deleted' || state.status === 'failed') break;
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
    watcher?.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return undefined;
};
