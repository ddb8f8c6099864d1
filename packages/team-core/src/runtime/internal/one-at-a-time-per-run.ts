/**
 * Wraps `fn` so calls for the same run id run one after another, never concurrently.
 * A failed call does not stop the next one; its error still reaches its own caller.
 */
export function oneAtATimePerRun<T>(
  fn: (runId: string) => Promise<T>,
): (runId: string) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (runId) => {
    const previous = tails.get(runId) ?? Promise.resolve();
    const run = () => fn(runId);
    const next = previous.then(run, run);
    tails.set(runId, next);
    return next.finally(() => {
      if (tails.get(runId) === next) tails.delete(runId);
    });
  };
}
