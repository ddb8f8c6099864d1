/** The export condition under which each workspace package resolves to its TypeScript source. */
export const SOURCE_CONDITION = 'teamkit-source';

/**
 * The Node.js arguments that make a child process run the same Teamkit code as the caller.
 *
 * When this module is itself loaded from TypeScript source (the tests, under the
 * `teamkit-source` condition), a worker script started with these arguments resolves every
 * `@teamkit/*` import to its source too, compiled on load by `tsx`'s ESM hooks: a race or crash test
 * never runs a stale `dist`. Loaded from the built package, it returns no arguments and
 * children use the built code, like the caller.
 */
export function sourceNodeArgs(): string[] {
  if (!import.meta.url.endsWith('.ts')) return [];
  return [`--conditions=${SOURCE_CONDITION}`, '--import', import.meta.resolve('tsx/esm')];
}
