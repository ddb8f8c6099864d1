import { type NotAvailable, notAvailable } from './not-available.js';

/** A function exported by team-core, typed loosely until its adapter is wired. */
export type TeamCoreFunction = (...args: never[]) => unknown;

let exportsPromise: Promise<Record<string, unknown> | NotAvailable> | undefined;

/** The public exports of `@teamkit/team-core`, or why it could not be loaded (e.g. not built). */
export function loadTeamCoreExports(): Promise<Record<string, unknown> | NotAvailable> {
  exportsPromise ??= import('@teamkit/team-core').then(
    (module) => ({ ...module }) as Record<string, unknown>,
    (error: unknown) =>
      notAvailable(
        `@teamkit/team-core could not be loaded (${error instanceof Error ? error.message : String(error)}); build it first`,
      ),
  );
  return exportsPromise;
}

/**
 * The named functions from team-core's public entry point, or a {@link NotAvailable}
 * naming the ones it does not export yet.
 */
export async function findTeamCoreFunctions<Name extends string>(
  names: readonly Name[],
): Promise<Record<Name, TeamCoreFunction> | NotAvailable> {
  const loaded = await loadTeamCoreExports();
  if ('notAvailable' in loaded && loaded.notAvailable === true) return loaded as NotAvailable;
  const exportsByName = loaded as Record<string, unknown>;
  const missing = names.filter((name) => typeof exportsByName[name] !== 'function');
  if (missing.length > 0) {
    return notAvailable(`@teamkit/team-core does not export ${missing.join(', ')} yet`);
  }
  const found = {} as Record<Name, TeamCoreFunction>;
  for (const name of names) found[name] = exportsByName[name] as TeamCoreFunction;
  return found;
}

/**
 * What an "ours" adapter reports while team-core already exports the API but the bench
 * has not been taught how to call it: a pending figure, not a failure.
 */
export function adapterNotWired(file: string, names: readonly string[]): NotAvailable {
  return notAvailable(
    `@teamkit/team-core exports ${names.join(', ')}; wire the adapter in apps/bench/src/${file}`,
  );
}
