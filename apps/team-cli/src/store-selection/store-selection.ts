import { readFile } from 'node:fs/promises';
import type { NatsCredentials, NatsStoreOptions, NatsTlsOptions } from '@teamkit/store-nats';
import { TeamkitError } from '@teamkit/team-core/errors';
import {
  STORE_CREDS_VARIABLE,
  STORE_REPLICAS_VARIABLE,
  STORE_TLS_VARIABLES,
  STORE_VARIABLE,
} from './store-variables.js';

/** Where a home's runs live: its folder, or a NATS JetStream server. */
export type StoreSelection =
  | { kind: 'file'; source: 'default' | 'setting' | 'environment' }
  | {
      kind: 'nats';
      source: 'setting' | 'environment';
      /** The servers as given, without credentials: safe to print. */
      shown: string;
      options: Pick<NatsStoreOptions, 'servers' | 'credentials' | 'tls' | 'replicas'>;
      /** Where the replica count came from: the `store.replicas` setting or the variable. */
      replicasSource: 'setting' | 'environment';
    };

function invalid(message: string, details: Record<string, unknown>): TeamkitError {
  return new TeamkitError('INVALID_INPUT', message, { details });
}

/** Splits `nats://user:pass@host:4222,nats://host2:4222` into servers and credentials. */
function parseServers(
  value: string,
  where: string,
): { servers: string[]; credentials?: NatsCredentials } {
  const servers: string[] = [];
  let credentials: NatsCredentials | undefined;
  for (const part of value.split(',')) {
    let url: URL;
    try {
      url = new URL(part.trim());
    } catch {
      throw invalid(`${where} is not a server URL: give nats://host:4222 or tls://host:4222.`, {
        value: part.replace(/\/\/[^@/]*@/, '//…@'),
      });
    }
    if ((url.protocol !== 'nats:' && url.protocol !== 'tls:') || url.hostname === '') {
      throw invalid(
        `${where} must be "file" or nats:// / tls:// URLs (comma-separated); got ${url.protocol}//${url.host}.`,
        { protocol: url.protocol },
      );
    }
    if (url.username !== '') {
      const user = decodeURIComponent(url.username);
      credentials =
        url.password === '' ? { token: user } : { user, pass: decodeURIComponent(url.password) };
    }
    servers.push(`${url.protocol}//${url.host}`);
  }
  return credentials === undefined ? { servers } : { servers, credentials };
}

function replicasOf(
  setting: number,
  env: NodeJS.ProcessEnv,
): { replicas: number; source: 'setting' | 'environment' } {
  const value = env[STORE_REPLICAS_VARIABLE];
  if (value === undefined || value === '') return { replicas: setting, source: 'setting' };
  if (!['1', '3', '5'].includes(value.trim())) {
    throw invalid(
      `${STORE_REPLICAS_VARIABLE} must be 1, 3 or 5 (the copies of each NATS stream; 3 on a three-node cluster); got ${JSON.stringify(value)}.`,
      { variable: STORE_REPLICAS_VARIABLE, value },
    );
  }
  return { replicas: Number(value), source: 'environment' };
}

async function credentialsFile(file: string): Promise<NatsCredentials> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Could not read the NATS credentials file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); fix ${STORE_CREDS_VARIABLE} or the store.credsFile setting.`,
      { cause: error, details: { file } },
    );
  }
  if (text.includes('BEGIN NATS USER JWT')) return { credsFile: file };
  const seed = text.trim();
  if (/^SU[A-Z2-7]+$/.test(seed)) return { nkeySeed: seed };
  throw invalid(
    `The NATS credentials file ${file} is neither a .creds file (a user JWT and its seed) nor an nkey user seed (SU…).`,
    { file },
  );
}

/**
 * Reads which store holds a home's runs: `TEAMKIT_STORE` if set, else the `store.url`
 * setting of the user's global config (a red line: a project file can never set it).
 * `file` is the home folder; `nats://…`/`tls://…` a NATS JetStream server, with a user
 * and password (or a token) in the URL, or a `.creds`/nkey seed file from
 * `TEAMKIT_STORE_CREDS` or `store.credsFile`, and TLS files from `TEAMKIT_STORE_TLS_*`.
 * The replicas of the streams it creates come from `TEAMKIT_STORE_REPLICAS` or
 * `store.replicas` (1 by default). Bad values are `INVALID_INPUT` naming what to fix; nothing is connected yet.
 */
export async function readStoreSelection(
  settings: { url: string; credsFile: string; replicas: number },
  env: NodeJS.ProcessEnv,
): Promise<StoreSelection> {
  const fromEnv = env[STORE_VARIABLE];
  const source = fromEnv !== undefined && fromEnv !== '' ? 'environment' : 'setting';
  const value = source === 'environment' ? (fromEnv as string) : settings.url;
  if (value === 'file')
    return {
      kind: 'file',
      source: source === 'environment' ? source : settings.url === 'file' ? 'default' : source,
    };
  const where = source === 'environment' ? STORE_VARIABLE : 'the store.url setting';
  const { replicas, source: replicasSource } = replicasOf(settings.replicas, env);
  const parsed = parseServers(value, where);
  const credsPath = env[STORE_CREDS_VARIABLE] || settings.credsFile;
  const credentials =
    credsPath !== '' && credsPath !== undefined
      ? await credentialsFile(credsPath)
      : parsed.credentials;
  const tls: NatsTlsOptions = {};
  for (const [option, variable] of Object.entries(STORE_TLS_VARIABLES)) {
    const file = env[variable];
    if (file !== undefined && file !== '') tls[option as keyof NatsTlsOptions] = file;
  }
  return {
    kind: 'nats',
    source,
    shown: parsed.servers.join(','),
    replicasSource,
    options: {
      servers: parsed.servers,
      replicas,
      ...(credentials === undefined ? {} : { credentials }),
      ...(Object.keys(tls).length === 0 ? {} : { tls }),
    },
  };
}
