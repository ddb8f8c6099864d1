import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { createTeamRuntime, TeamRuntime } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenCodeHost } from './opencode-host.js';
import { createPluginContext } from './plugin-context.js';
import { resolvePluginOptions } from './plugin-options.js';
import { OPENCODE_TOOL_VOCABULARY } from './tools/tool-vocabulary.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-plugin-context-'));
});
afterEach(async () => rm(home, { recursive: true, force: true }));

type RuntimeOptions = Parameters<typeof createTeamRuntime>[0];

/** Builds the context over a host that only answers checkAttach, and records the runtime options. */
async function runtimeOptionsFor(pluginOptions: Record<string, unknown>, settings: object) {
  await writeFile(path.join(home, 'config.json'), JSON.stringify({ version: 1, settings }));
  const attachChecks: string[] = [];
  const host = {
    hostId: 'opencode',
    async checkAttach() {
      attachChecks.push('checked');
      return { usable: true as const, url: 'http://127.0.0.1:1' };
    },
  } as unknown as OpenCodeHost;
  let seen: RuntimeOptions | undefined;
  const ctx = createPluginContext({
    store: createFileStore({ root: home }),
    options: resolvePluginOptions(pluginOptions).options,
    home,
    project: home,
    host,
    log: () => {},
    env: { TMUX: '/tmp/tmux-test/default,1,0', TMUX_PANE: '%1' },
    createRuntime: async (options) => {
      seen = options;
      return {
        resumeAll: async () => ({ runs: [], failed: [], problems: [] }),
      } as unknown as TeamRuntime;
    },
  });
  await ctx.runtime();
  return { options: seen as RuntimeOptions, attachChecks };
}

describe('the plugin context', () => {
  it('gives the runtime the plugin’s tool vocabulary', async () => {
    const { options } = await runtimeOptionsFor({}, {});
    expect(options.vocabulary).toBe(OPENCODE_TOOL_VOCABULARY);
  });

  it('opens no panes when tmux.enabled is off and the plugin option is unset (setting: tmux.enabled)', async () => {
    const off = await runtimeOptionsFor({}, { 'tmux.enabled': 'off' });
    expect(off.options.tmux).toBeUndefined();
    expect(off.attachChecks).toEqual([]);
    const auto = await runtimeOptionsFor({}, {});
    expect(auto.options.tmux).toMatchObject({ callerPaneId: '%1' });
  });

  it('lets an explicit plugin tmux option win over the setting', async () => {
    const { options } = await runtimeOptionsFor({ tmux: true }, { 'tmux.enabled': 'off' });
    expect(options.tmux).toMatchObject({ callerPaneId: '%1' });
  });
});
