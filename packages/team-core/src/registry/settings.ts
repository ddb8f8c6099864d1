import { z } from 'zod';

/** Where a config layer comes from; derived from the file's location, never written in it. */
export type RegistryScope = 'global' | 'project';

/** One of Teamkit's own settings: its type, default, meaning and whether it is a red line. */
export interface SettingDefinition<T> {
  /** Validates a value from a config file. */
  schema: z.ZodType<T>;
  /** Human-readable type, as shown in docs and by `doctor`. */
  type: string;
  default: T;
  description: string;
  /**
   * A red-line key guards safety: a project file may not loosen it. Only the global file
   * (the user's own) is honoured for loosening values.
   */
  redLine: boolean;
  /**
   * For red-line keys whose values can also tighten the guard: true when `value` loosens
   * it compared with `current`. Without it, every project value of a red-line key is ignored.
   */
  loosens?: (value: T, current: T) => boolean;
  /** Where the value is read, as shown in docs: every setting is consumed somewhere. */
  readBy: string;
  /** For values that may carry a secret: the value as reports and messages show it. */
  redact?: (value: unknown) => unknown;
}

/** Hides the password or token of `scheme://user:password@host` URLs in a value. */
function redactUrlSecrets(value: unknown): unknown {
  return typeof value === 'string'
    ? value.replace(/\/\/([^:@/,]*):[^@/,]*@/g, '//$1:***@').replace(/\/\/[^:@/,]+@/g, '//***@')
    : value;
}

/** A setting's value as reports show it: secrets in it (a password in a URL) hidden. */
export function shownSettingValue(key: string, value: unknown): unknown {
  const definition = (SETTINGS as Record<string, SettingDefinition<unknown>>)[key];
  return definition?.redact === undefined ? value : definition.redact(value);
}

function defineSetting<T>(
  definition: SettingDefinition<NoInfer<T>> & { schema: z.ZodType<T> },
): SettingDefinition<T> {
  return definition;
}

const integer = (min: number, max: number) => z.number().int().min(min).max(max);

/**
 * Every Teamkit setting, with its type, default, one-line description and red-line flag.
 * Layers resolve as built-in defaults < global config < project config.
 */
export const SETTINGS = {
  'mailbox.payloadMaxBytes': defineSetting({
    schema: integer(256, 16 * 1024 * 1024),
    type: 'integer 256–16777216',
    default: 32 * 1024,
    description: 'Largest message body, in bytes, a member may send.',
    readBy: 'run start: the run policy takes the smaller of this and the team policy',
    redLine: true,
    loosens: (value, current) => value > current,
  }),
  'mailbox.unreadMaxBytes': defineSetting({
    schema: integer(1024, 256 * 1024 * 1024),
    type: 'integer 1024–268435456',
    default: 256 * 1024,
    description: 'Unread bytes an inbox may hold before senders get backpressure.',
    readBy: 'run start: the run policy takes the smaller of this and the team policy',
    redLine: true,
    loosens: (value, current) => value > current,
  }),
  'mailbox.broadcast': defineSetting({
    schema: z.enum(['lead-only', 'everyone']),
    type: 'one of lead-only, everyone',
    default: 'lead-only',
    description: 'Who may broadcast to the whole team: the lead only, or every member.',
    readBy: 'run start: lead-only here or in the team policy wins',
    redLine: true,
    loosens: (value, current) => value === 'everyone' && current !== 'everyone',
  }),
  'lock.timeoutMs': defineSetting({
    schema: integer(0, 600_000),
    type: 'integer 0–600000',
    default: 15_000,
    description: 'How long to wait for a lock before failing with LOCK_TIMEOUT.',
    readBy: 'the runtime, its supervisor, and the member commands of `team`',
    redLine: false,
  }),
  'tmux.enabled': defineSetting({
    schema: z.enum(['auto', 'on', 'off']),
    type: 'one of auto, on, off',
    default: 'auto',
    description: 'Show members in tmux panes: auto (only inside tmux), always, or never.',
    readBy: '`team run start`; the OpenCode plugin unless its `tmux` option is set',
    redLine: false,
  }),
  'worktree.cleanup': defineSetting({
    schema: z.enum(['keep', 'remove-clean']),
    type: 'one of keep, remove-clean',
    default: 'remove-clean',
    description: 'After a run: keep member worktrees, or remove those with no unsaved work.',
    readBy: 'run stop (a forced stop removes them anyway)',
    redLine: false,
  }),
  'runs.failedRetentionHours': defineSetting({
    schema: integer(0, 24 * 366),
    type: 'integer 0–8784',
    default: 168,
    description: 'Hours the folder of a failed run is kept for inspection before sweeping.',
    readBy: '`team run sweep`',
    redLine: false,
  }),
  'store.url': defineSetting({
    schema: z.string().regex(/^(file|((nats|tls):\/\/[^\s,]+)(,(nats|tls):\/\/[^\s,]+)*)$/),
    type: 'file, or nats:// or tls:// URLs (comma-separated)',
    default: 'file',
    description: 'Where runs live: the home folder, or a NATS JetStream server shared by machines.',
    readBy: 'every `team` command; `TEAMKIT_STORE` overrides it',
    redLine: true,
    redact: redactUrlSecrets,
  }),
  'store.credsFile': defineSetting({
    schema: z.string(),
    type: 'path, or empty',
    default: '',
    description: 'NATS credentials: a .creds file (user JWT and seed) or an nkey seed file.',
    readBy: 'every `team` command; `TEAMKIT_STORE_CREDS` overrides it',
    redLine: true,
  }),
  'store.replicas': defineSetting({
    schema: z.union([z.literal(1), z.literal(3), z.literal(5)]),
    type: 'one of 1, 3, 5',
    default: 1,
    description: 'Copies of each NATS stream the store creates: 3 or 5 on a cluster of that size.',
    readBy:
      'every `team` command, when it creates the streams; `TEAMKIT_STORE_REPLICAS` overrides it',
    redLine: true,
  }),
} as const;

/**
 * Keys that earlier releases documented but no code read, with why they are gone. A
 * config that still sets one is told so (as an unknown key with this reason), never obeyed.
 */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  'watch.reconcileIntervalMs':
    'each watcher keeps its own re-scan period (watchInbox takes reconcileIntervalMs as an option)',
  'lock.staleMs':
    'every process sharing a run must judge a lock stale after the same period, which a per-project file cannot promise; embedders pass lock.staleMs as an option',
  'paths.checks': 'path containment checks are always on',
};

/** The name of a Teamkit setting. */
export type SettingKey = keyof typeof SETTINGS;

/** The resolved value of every setting, typed per key. */
export type SettingsValues = {
  [K in SettingKey]: z.output<(typeof SETTINGS)[K]['schema']>;
};

/** Where a resolved setting's value came from. */
export type SettingSource = 'default' | RegistryScope;

/** One resolved setting: its value, the layer it came from and that layer's file. */
export interface ResolvedSetting {
  key: SettingKey;
  value: unknown;
  source: SettingSource;
  file?: string;
}

/** A project value of a red-line key that was ignored. */
export interface IgnoredRedLineSetting {
  key: SettingKey;
  value: unknown;
  file: string;
  message: string;
}

/** A key that is not a Teamkit setting; reported, never applied. */
export interface UnknownSettingKey {
  key: string;
  scope: RegistryScope;
  file: string;
  /** For a retired key ({@link RETIRED_SETTINGS}): why it is no longer read. */
  retired?: string;
}

/** A value of the wrong type or out of range; the lower layer's value stays. */
export interface InvalidSettingValue {
  key: SettingKey;
  value: unknown;
  scope: RegistryScope;
  file: string;
  message: string;
}

/** Teamkit's settings after layering, with the source of each value and what was refused. */
export interface ResolvedSettings {
  values: SettingsValues;
  entries: ResolvedSetting[];
  ignoredRedLine: IgnoredRedLineSetting[];
  unknownKeys: UnknownSettingKey[];
  invalid: InvalidSettingValue[];
}

/** One layer of settings: the `settings` object of a config source and where it lives. */
export interface SettingsLayer {
  scope: RegistryScope;
  file: string;
  settings: Record<string, unknown>;
}

function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

function isRetiredKey(key: string): boolean {
  return Object.hasOwn(RETIRED_SETTINGS, key);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Accepts both `"mailbox.payloadMaxBytes": 1` and `"mailbox": { "payloadMaxBytes": 1 }`. */
function flattenSettings(
  settings: Record<string, unknown>,
  prefix = '',
): Array<[key: string, value: unknown]> {
  const flat: Array<[string, unknown]> = [];
  for (const [name, value] of Object.entries(settings)) {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    if (!isSettingKey(key) && !isRetiredKey(key) && isPlainObject(value))
      flat.push(...flattenSettings(value, key));
    else flat.push([key, value]);
  }
  return flat;
}

/**
 * Layers settings: built-in defaults, then each layer in the order given (global before
 * project). Unknown keys are reported and never applied; invalid values are reported and
 * the lower layer's value stays; a project value that loosens a red-line key is ignored
 * and reported. Pure: reads nothing, writes nothing.
 */
export function resolveSettings(layers: readonly SettingsLayer[]): ResolvedSettings {
  const entries = new Map<SettingKey, ResolvedSetting>();
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    entries.set(key, { key, value: SETTINGS[key].default, source: 'default' });
  }
  const ignoredRedLine: IgnoredRedLineSetting[] = [];
  const unknownKeys: UnknownSettingKey[] = [];
  const invalid: InvalidSettingValue[] = [];
  const ordered = [...layers].sort(
    (a, b) => Number(a.scope === 'project') - Number(b.scope === 'project'),
  );
  for (const layer of ordered) {
    for (const [key, raw] of flattenSettings(layer.settings)) {
      if (!isSettingKey(key)) {
        const retired = isRetiredKey(key) ? RETIRED_SETTINGS[key] : undefined;
        unknownKeys.push({
          key,
          scope: layer.scope,
          file: layer.file,
          ...(retired === undefined ? {} : { retired }),
        });
        continue;
      }
      const definition = SETTINGS[key] as SettingDefinition<unknown>;
      const parsed = definition.schema.safeParse(raw);
      if (!parsed.success) {
        invalid.push({
          key,
          value: raw,
          scope: layer.scope,
          file: layer.file,
          message: `setting "${key}" in ${layer.file} must be ${definition.type}; got ${JSON.stringify(shownSettingValue(key, raw))}. The ${entries.get(key)?.source} value stays.`,
        });
        continue;
      }
      const current = entries.get(key)?.value;
      if (
        layer.scope === 'project' &&
        definition.redLine &&
        (definition.loosens === undefined || definition.loosens(parsed.data, current))
      ) {
        ignoredRedLine.push({
          key,
          value: parsed.data,
          file: layer.file,
          message: `project setting "${key}" = ${JSON.stringify(shownSettingValue(key, parsed.data))} in ${layer.file} was ignored: it loosens a guard, which only the global config may do.`,
        });
        continue;
      }
      entries.set(key, { key, value: parsed.data, source: layer.scope, file: layer.file });
    }
  }
  const values = Object.fromEntries(
    [...entries.values()].map((entry) => [entry.key, entry.value]),
  ) as SettingsValues;
  return { values, entries: [...entries.values()], ignoredRedLine, unknownKeys, invalid };
}
