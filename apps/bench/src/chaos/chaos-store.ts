import { useStoreForHome } from '@teamkit/team-core';
import { CHAOS_LOCK } from './chaos-protocol.js';

/** The variable that puts a home's runs in a NATS server, as the `team` CLI reads it. */
export const STORE_VARIABLE = 'TEAMKIT_STORE';

/**
 * Makes the store named by `TEAMKIT_STORE` hold the runs of `home` in this process, as
 * every `team` command does at start-up: `nats://` URLs (comma-separated, one cluster)
 * open the NATS store with the chaos suite's lock tuning; unset or `file` keeps the home
 * folder. Returns what closes the connection.
 */
export async function useChaosStore(
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<() => Promise<void>> {
  const selected = env[STORE_VARIABLE];
  if (selected === undefined || selected === '' || selected === 'file') return async () => {};
  const { createNatsStore } = await import('@teamkit/store-nats');
  const store = await createNatsStore({
    servers: selected.split(',').map((url) => url.trim()),
    lock: CHAOS_LOCK,
    name: 'teamkit-chaos',
  });
  useStoreForHome(home, store);
  return async () => {
    useStoreForHome(home, undefined);
    await store.close();
  };
}
