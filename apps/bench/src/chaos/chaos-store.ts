import type { TeamkitStore } from '@teamkit/team-core/storage';
import { CHAOS_LOCK } from './chaos-protocol.js';

/** The variable that puts a home's runs in a NATS server, as the `team` CLI reads it. */
export const STORE_VARIABLE = 'TEAMKIT_STORE';

/**
 * Opens the store named by `TEAMKIT_STORE` for the runs of `home`, as every `team` command
 * does at start-up: `nats://` URLs (comma-separated, one cluster) open the NATS store with
 * the chaos suite's lock tuning; unset or `file` is the file store of the home. Returns
 * the store and what closes it.
 */
export async function openChaosStore(
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<{ store: TeamkitStore; close: () => Promise<void> }> {
  const selected = env[STORE_VARIABLE];
  if (selected === undefined || selected === '' || selected === 'file') {
    const { createFileStore } = await import('@teamkit/team-core/storage');
    const store = createFileStore({ root: home, lock: CHAOS_LOCK });
    return { store, close: () => store.close() };
  }
  const { createNatsStore } = await import('@teamkit/store-nats');
  const store = await createNatsStore({
    servers: selected.split(',').map((url) => url.trim()),
    lock: CHAOS_LOCK,
    name: 'teamkit-chaos',
  });
  return { store, close: () => store.close() };
}
