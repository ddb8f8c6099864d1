/** Reports an error to a watch's handler; a handler that throws is ignored too. */
export function reportWatchError(
  onError: ((error: unknown) => void) | undefined,
  error: unknown,
): void {
  try {
    onError?.(error);
  } catch {
    // An error handler that throws must not take the process down either.
  }
}

/** Options of {@link createChangeBatcher}. */
export interface ChangeBatcherOptions<T> {
  /**
   * How long changes gather after the first one of a batch, in ms; `0` delivers on the
   * next turn of the event loop (what one burst of synchronous work produced).
   */
  delayMs: number;
  /** The key two changes coalesce by: a later change of the same key replaces the earlier one. */
  keyOf: (change: T) => string;
  /** How an earlier and a later change of one key combine; by default the later one wins. */
  merge?: (earlier: T, later: T) => T;
  /** Called with one batch, in key order; never called again until it returned. */
  deliver: (changes: T[]) => void;
  /** Where an error thrown by `deliver` goes; never to the process. */
  onError?: ((error: unknown) => void) | undefined;
}

/** A running batcher; see {@link createChangeBatcher}. */
export interface ChangeBatcher<T> {
  /** Adds a change to the open batch (opening one if none is). Ignored once stopped. */
  add(change: T): void;
  /** Delivers the open batch now, if it holds anything. */
  flush(): void;
  /** Drops the open batch and delivers nothing more. Safe to call twice. */
  stop(): void;
}

/**
 * Collects changes for a short window, coalesces them by key and delivers them in one
 * call: the batching every store watch and the UI's live view share, so a burst of file
 * events or stream messages becomes one callback instead of one per event.
 */
export function createChangeBatcher<T>(options: ChangeBatcherOptions<T>): ChangeBatcher<T> {
  const { delayMs, keyOf, merge, deliver, onError } = options;
  const open = new Map<string, T>();
  let scheduled: NodeJS.Timeout | NodeJS.Immediate | undefined;
  let stopped = false;
  let delivering = false;

  const cancel = () => {
    if (scheduled === undefined) return;
    if (delayMs === 0) clearImmediate(scheduled as NodeJS.Immediate);
    else clearTimeout(scheduled as NodeJS.Timeout);
    scheduled = undefined;
  };

  const schedule = () => {
    if (scheduled !== undefined || stopped) return;
    scheduled = delayMs === 0 ? setImmediate(flush) : setTimeout(flush, delayMs);
  };

  function flush(): void {
    cancel();
    if (stopped || open.size === 0) return;
    // A change added by `deliver` itself waits for the next batch, so batches never overlap.
    if (delivering) {
      schedule();
      return;
    }
    const keys = [...open.keys()].sort();
    const batch = keys.map((key) => open.get(key) as T);
    open.clear();
    delivering = true;
    try {
      deliver(batch);
    } catch (error) {
      reportWatchError(onError, error);
    } finally {
      delivering = false;
    }
    if (open.size > 0) schedule();
  }

  return {
    add(change) {
      if (stopped) return;
      const key = keyOf(change);
      const earlier = open.get(key);
      open.set(key, earlier === undefined || merge === undefined ? change : merge(earlier, change));
      schedule();
    },
    flush,
    stop() {
      stopped = true;
      cancel();
      open.clear();
    },
  };
}
