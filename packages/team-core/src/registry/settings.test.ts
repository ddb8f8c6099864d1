import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { makeTempFolder } from '../test-support/temp-folder.js';
import {
  RETIRED_SETTINGS,
  resolveSettings,
  SETTINGS,
  type SettingKey,
  shownSettingValue,
} from './settings.js';
import { loadTeamLibrary } from './team-library.js';
import { configJson, snapshotTree, writeTree } from './test-support/registry-fixture.js';

const GLOBAL = '~/.teamkit/config.json';
const PROJECT = '<project>/.teamkit/config.json';
const sourceOf = (resolved: ReturnType<typeof resolveSettings>, key: SettingKey) =>
  resolved.entries.find((entry) => entry.key === key);

describe('SETTINGS', () => {
  it('gives every key a type, a valid default, a one-line description and a red-line flag', () => {
    const keys = Object.keys(SETTINGS) as SettingKey[];
    for (const required of [
      'mailbox.payloadMaxBytes',
      'mailbox.unreadMaxBytes',
      'mailbox.broadcast',
      'lock.timeoutMs',
      'tmux.enabled',
      'worktree.cleanup',
      'runs.failedRetentionHours',
    ]) {
      expect(keys).toContain(required);
    }
    for (const retired of Object.keys(RETIRED_SETTINGS)) expect(keys).not.toContain(retired);
    for (const key of keys) {
      const definition = SETTINGS[key];
      expect(definition.schema.safeParse(definition.default).success, key).toBe(true);
      expect(definition.description, key).toMatch(/^[^\n]{10,120}$/);
      expect(typeof definition.redLine, key).toBe('boolean');
      expect(definition.type.length, key).toBeGreaterThan(0);
      expect(definition.readBy.length, key).toBeGreaterThan(0);
    }
  });

  it('matches the settings table in docs/registry.md row for row, and lists every retired key', async () => {
    const docs = await readFile(new URL('../../../../docs/registry.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('\n## Settings\n'), docs.indexOf('\n## Doctor\n'));
    // The first table lists the settings; a later one lists retired keys.
    const firstTable = section.slice(0, section.indexOf('\n\n', section.indexOf('\n| key')));
    const cells = (line: string) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
    const rows = firstTable
      .split('\n')
      .filter((line) => /^\| `[a-z]+\.[A-Za-z]+` +\|/.test(line))
      .map(cells);
    expect(rows).toEqual(
      (Object.keys(SETTINGS) as SettingKey[]).map((key) => {
        const definition = SETTINGS[key];
        return [
          `\`${key}\``,
          definition.type,
          `\`${JSON.stringify(definition.default)}\``,
          definition.redLine ? 'yes' : 'no',
          definition.description,
          definition.readBy,
        ];
      }),
    );
    for (const key of Object.keys(RETIRED_SETTINGS)) expect(section).toContain(`| \`${key}\``);
  });
});

describe('resolveSettings', () => {
  it('uses built-in defaults when no layer sets a key, and records the source of each', () => {
    const resolved = resolveSettings([]);
    expect(resolved.values['tmux.enabled']).toBe('auto');
    expect(resolved.entries.every((entry) => entry.source === 'default')).toBe(true);
    expect(resolved.entries).toHaveLength(Object.keys(SETTINGS).length);
  });

  it('types each resolved value by its key', () => {
    const { values } = resolveSettings([]);
    expectTypeOf(values['tmux.enabled']).toEqualTypeOf<'auto' | 'on' | 'off'>();
    expectTypeOf(values['mailbox.broadcast']).toEqualTypeOf<'lead-only' | 'everyone'>();
    expectTypeOf(values['lock.timeoutMs']).toEqualTypeOf<number>();
    expect(values['lock.timeoutMs']).toBe(15_000);
  });

  it('layers defaults < global < project, in that order whatever the input order', () => {
    const resolved = resolveSettings([
      { scope: 'project', file: PROJECT, settings: { 'lock.timeoutMs': 30_000 } },
      {
        scope: 'global',
        file: GLOBAL,
        settings: { 'lock.timeoutMs': 20_000, 'runs.failedRetentionHours': 1 },
      },
    ]);
    expect(resolved.values['lock.timeoutMs']).toBe(30_000);
    expect(resolved.values['runs.failedRetentionHours']).toBe(1);
    expect(sourceOf(resolved, 'lock.timeoutMs')).toEqual({
      key: 'lock.timeoutMs',
      value: 30_000,
      source: 'project',
      file: PROJECT,
    });
    expect(sourceOf(resolved, 'runs.failedRetentionHours')?.source).toBe('global');
    expect(sourceOf(resolved, 'tmux.enabled')?.source).toBe('default');
  });

  it('accepts nested objects as well as dotted keys', () => {
    const resolved = resolveSettings([
      {
        scope: 'global',
        file: GLOBAL,
        settings: { tmux: { enabled: 'off' }, worktree: { cleanup: 'keep' } },
      },
    ]);
    expect(resolved.values['tmux.enabled']).toBe('off');
    expect(resolved.values['worktree.cleanup']).toBe('keep');
    expect(resolved.unknownKeys).toEqual([]);
  });

  it('ignores and reports a red-line value in the project file, but honours it from the global file', () => {
    const project = resolveSettings([
      {
        scope: 'project',
        file: PROJECT,
        settings: { 'mailbox.broadcast': 'everyone', 'mailbox.payloadMaxBytes': 65_536 },
      },
    ]);
    expect(project.values['mailbox.broadcast']).toBe('lead-only');
    expect(project.values['mailbox.payloadMaxBytes']).toBe(32_768);
    expect(project.ignoredRedLine.map((item) => [item.key, item.value, item.file])).toEqual([
      ['mailbox.broadcast', 'everyone', PROJECT],
      ['mailbox.payloadMaxBytes', 65_536, PROJECT],
    ]);
    expect(project.ignoredRedLine[0]?.message).toBe(
      `project setting "mailbox.broadcast" = "everyone" in ${PROJECT} was ignored: it loosens a guard, which only the global config may do.`,
    );
    const global = resolveSettings([
      {
        scope: 'global',
        file: GLOBAL,
        settings: { 'mailbox.broadcast': 'everyone', 'mailbox.payloadMaxBytes': 65_536 },
      },
    ]);
    expect(global.values['mailbox.broadcast']).toBe('everyone');
    expect(global.values['mailbox.payloadMaxBytes']).toBe(65_536);
    expect(global.ignoredRedLine).toEqual([]);
  });

  it('lets a project tighten a red-line key but not loosen it past the global value', () => {
    const resolved = resolveSettings([
      { scope: 'global', file: GLOBAL, settings: { 'mailbox.payloadMaxBytes': 65_536 } },
      {
        scope: 'project',
        file: PROJECT,
        settings: { 'mailbox.payloadMaxBytes': 4_096, 'mailbox.unreadMaxBytes': 1_000_000 },
      },
    ]);
    expect(resolved.values['mailbox.payloadMaxBytes']).toBe(4_096);
    expect(sourceOf(resolved, 'mailbox.payloadMaxBytes')?.source).toBe('project');
    expect(resolved.values['mailbox.unreadMaxBytes']).toBe(
      SETTINGS['mailbox.unreadMaxBytes'].default,
    );
    expect(resolved.ignoredRedLine.map((item) => item.key)).toEqual(['mailbox.unreadMaxBytes']);
  });

  it('reports unknown keys and never applies them', () => {
    const resolved = resolveSettings([
      {
        scope: 'project',
        file: PROJECT,
        settings: { 'mailbox.payloadMaxByte': 1, tmux: { colour: 'red' } },
      },
    ]);
    expect(resolved.unknownKeys).toEqual([
      { key: 'mailbox.payloadMaxByte', scope: 'project', file: PROJECT },
      { key: 'tmux.colour', scope: 'project', file: PROJECT },
    ]);
    expect(Object.keys(resolved.values)).toEqual(Object.keys(SETTINGS));
  });

  it('reports a retired key with why it is no longer read, and never applies it', () => {
    const resolved = resolveSettings([
      {
        scope: 'global',
        file: GLOBAL,
        settings: {
          'paths.checks': false,
          lock: { staleMs: 2_000 },
          watch: { reconcileIntervalMs: 5 },
        },
      },
    ]);
    expect(resolved.unknownKeys).toEqual([
      {
        key: 'paths.checks',
        scope: 'global',
        file: GLOBAL,
        retired: RETIRED_SETTINGS['paths.checks'],
      },
      {
        key: 'lock.staleMs',
        scope: 'global',
        file: GLOBAL,
        retired: RETIRED_SETTINGS['lock.staleMs'],
      },
      {
        key: 'watch.reconcileIntervalMs',
        scope: 'global',
        file: GLOBAL,
        retired: RETIRED_SETTINGS['watch.reconcileIntervalMs'],
      },
    ]);
    expect(Object.keys(resolved.values)).toEqual(Object.keys(SETTINGS));
  });

  it('reports a value of the wrong type and keeps the lower layer', () => {
    const resolved = resolveSettings([
      { scope: 'global', file: GLOBAL, settings: { 'lock.timeoutMs': 20_000 } },
      {
        scope: 'project',
        file: PROJECT,
        settings: { 'lock.timeoutMs': '5s', 'tmux.enabled': true },
      },
    ]);
    expect(resolved.values['lock.timeoutMs']).toBe(20_000);
    expect(resolved.values['tmux.enabled']).toBe('auto');
    expect(resolved.invalid.map((item) => item.key)).toEqual(['lock.timeoutMs', 'tmux.enabled']);
    expect(resolved.invalid[0]?.message).toContain(
      'must be integer 0–600000; got "5s". The global value stays.',
    );
  });
});

describe('settings through loadTeamLibrary', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempFolder('teamkit-registry-'));
  });
  afterEach(async () => cleanup());

  it('ignores a red-line key in the project file, reports unknown keys, and writes nothing', async () => {
    const home = path.join(root, 'home');
    const project = path.join(root, 'project');
    await writeTree(home, {
      'config.json': configJson([{ id: 'solo' }], { 'runs.failedRetentionHours': 24 }),
    });
    await writeTree(project, {
      '.teamkit/config.json': configJson([], {
        mailbox: { broadcast: 'everyone' },
        'lock.timeoutMs': 1_000,
        'surprise.key': 1,
      }),
    });
    const before = await snapshotTree(root);
    const library = await loadTeamLibrary({ home, project, env: {} });
    const projectFile = path.join(project, '.teamkit', 'config.json');
    expect(library.settings.values['mailbox.broadcast']).toBe('lead-only');
    expect(library.settings.values['lock.timeoutMs']).toBe(1_000);
    expect(library.settings.values['runs.failedRetentionHours']).toBe(24);
    expect(library.settings.ignoredRedLine.map((item) => [item.key, item.file])).toEqual([
      ['mailbox.broadcast', projectFile],
    ]);
    expect(library.settings.unknownKeys).toEqual([
      { key: 'surprise.key', scope: 'project', file: projectFile },
    ]);
    expect(library.warnings.filter((w) => w.topic === 'setting').map((w) => w.code)).toEqual([
      'PERMISSION_DENIED',
      'INVALID_CONFIG',
    ]);
    expect(await snapshotTree(root)).toEqual(before);
  });
});

describe('shownSettingValue', () => {
  it('hides passwords and tokens in store URLs, in reports and in refusal messages', () => {
    expect(shownSettingValue('store.url', 'nats://teamkit:s3cret@h:4222,nats://tok3n@g:4222')).toBe(
      'nats://teamkit:***@h:4222,nats://***@g:4222',
    );
    expect(shownSettingValue('tmux.enabled', 'on')).toBe('on');
    const resolved = resolveSettings([
      { scope: 'project', file: 'p.json', settings: { 'store.url': 'nats://u:s3cret@h:1' } },
    ]);
    expect(resolved.ignoredRedLine[0]?.message).not.toContain('s3cret');
  });
});
