import { isTeamkitError, TeamkitError } from '@teamkit/team-core';
import type { StoreSelection } from './store-selection.js';

/** What `team doctor` found about the store of the home's runs. */
export interface StoreCheck {
  kind: 'file' | 'nats';
  /** Where the choice came from: the default, the `store.url` setting, or `TEAMKIT_STORE`. */
  source: StoreSelection['source'];
  /** The servers, without credentials (NATS only). */
  servers?: string;
  ok: boolean;
  /** One line: what works, or what failed and what to do. */
  line: string;
  /** The error code of a failure. */
  code?: string;
  /**
   * NATS only: the replicas the store's streams are created with (`store.replicas` or
   * `TEAMKIT_STORE_REPLICAS`), and the replicas each existing stream really has.
   */
  replicas?: { wanted: number; streams: Record<string, number> };
}

const SOURCE_NAMES = {
  default: 'the default',
  setting: 'the store.url setting',
  environment: 'TEAMKIT_STORE',
} as const;

/**
 * Connects to the selected NATS server the way every command does (which also creates the
 * store's bucket and log stream when missing, so a server without JetStream fails here)
 * and says in one line whether the runs can live there. The file store needs no check.
 */
export async function checkStore(
  selection: StoreSelection,
  timeoutMs = 5_000,
): Promise<StoreCheck> {
  const from = SOURCE_NAMES[selection.source];
  if (selection.kind === 'file') {
    return {
      kind: 'file',
      source: selection.source,
      ok: true,
      line: `file: runs live in the home folder (${from})`,
    };
  }
  const base = { kind: 'nats' as const, source: selection.source, servers: selection.shown };
  const { createNatsStore } = await import('@teamkit/store-nats');
  try {
    const store = await createNatsStore({
      ...selection.options,
      timeoutMs,
      name: 'teamkit-doctor',
    });
    let streams: Record<string, number>;
    try {
      streams = await store.streamReplicas();
    } finally {
      await store.close();
    }
    const wanted = store.replicas;
    return {
      ...base,
      ok: true,
      replicas: { wanted, streams },
      line: `nats: ${selection.shown} (${from}): connected, JetStream enabled${replicasNote(selection, wanted, streams)}`,
    };
  } catch (error) {
    if (!isTeamkitError(error)) throw error;
    const text = `${error.message} ${String((error.cause as Error | undefined)?.message ?? '')}`;
    const why = /jetstream (is )?not enabled/i.test(text)
      ? 'the server answers but JetStream is not enabled: start nats-server with -js (and a store folder, -sd) or enable jetstream in its config'
      : error.code === 'PERMISSION_DENIED'
        ? `the server refused these credentials or their rights (${error.message})`
        : error.code === 'STORE_UNAVAILABLE'
          ? `cannot reach it within ${timeoutMs} ms: check the address, that nats-server runs, and the network (${firstReason(text)})`
          : error.message;
    return {
      ...base,
      ok: false,
      code: error.code,
      line: `nats: ${selection.shown} (${from}): FAILED: ${why}`,
    };
  }
}

/** What the line says of the streams' replicas: nothing when they have what was asked. */
function replicasNote(
  selection: Extract<StoreSelection, { kind: 'nats' }>,
  wanted: number,
  streams: Record<string, number>,
): string {
  const other = Object.entries(streams).filter(([, replicas]) => replicas !== wanted);
  const setting =
    selection.replicasSource === 'environment' ? 'TEAMKIT_STORE_REPLICAS' : 'store.replicas';
  if (other.length === 0) return `; streams have ${wanted} replica${wanted === 1 ? '' : 's'}`;
  const shown = other.map(([stream, replicas]) => `${stream} has ${replicas}`).join(', ');
  return `; ${setting} is ${wanted} but ${shown} (made before, used as they are; change them with \`nats stream edit <stream> --replicas ${wanted}\`)`;
}

function firstReason(text: string): string {
  return (
    /\(([^()]*(refused|timeout|timed out|not found|ENOTFOUND|EAI_AGAIN)[^()]*)\)/i.exec(
      text,
    )?.[1] ?? 'no answer'
  );
}

/** The error a failed check stands for, so the command exits with that error's code. */
export function storeCheckError(check: StoreCheck): TeamkitError {
  return new TeamkitError(
    check.code === 'PERMISSION_DENIED' ? 'PERMISSION_DENIED' : 'STORE_UNAVAILABLE',
    check.line,
    { details: { servers: check.servers } },
  );
}
