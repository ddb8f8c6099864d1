import type { TeamkitStore } from '../teamkit-store.js';

/** A store method that takes a key (or collection) first. */
export type KeyedMethod = Exclude<keyof TeamkitStore, 'kind' | 'close'>;

/**
 * `store` with `fault()` thrown by the calls `failing` picks (by method and first
 * argument, the key or collection), for tests of what callers do when the store fails.
 */
export function faultyStore(
  store: TeamkitStore,
  failing: (method: KeyedMethod, key: string) => boolean,
  fault: () => Error,
): TeamkitStore {
  return new Proxy(store, {
    get(target, method: keyof TeamkitStore) {
      const original = target[method];
      if (typeof original !== 'function') return original;
      return (first: string, ...rest: unknown[]) => {
        if (failing(method as KeyedMethod, first)) return Promise.reject(fault());
        return (original as (...args: unknown[]) => unknown).call(target, first, ...rest);
      };
    },
  });
}
