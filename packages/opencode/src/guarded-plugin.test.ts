import type { PluginInput } from '@opencode-ai/plugin';
import { describe, expect, it } from 'vitest';
import { createGuardedPlugin, REINSTALL_ADVICE } from './guarded-plugin.js';
import { createFakeOpenCodeClient } from './test-support/fake-opencode-client.js';

function inputFor(client: unknown): PluginInput {
  return { client, directory: '/', worktree: '/' } as unknown as PluginInput;
}

describe('the guarded plugin entry', () => {
  it('says in one line that its code did not load and what to do, and registers nothing', async () => {
    const client = createFakeOpenCodeClient();
    const notices: string[] = [];
    const missing = new Error(
      "Cannot find package '@teamkit/team-core' imported from /x/dist/create-teamkit-plugin.js\n    at resolve (node:internal)",
    );
    const plugin = createGuardedPlugin(
      () => Promise.reject(missing),
      (line) => notices.push(line),
    );
    await expect(plugin(inputFor(client), undefined)).resolves.toEqual({});
    expect(notices).toEqual([
      `teamkit: the OpenCode plugin @teamkit/opencode could not load its code: Cannot find package '@teamkit/team-core' imported from /x/dist/create-teamkit-plugin.js. ${REINSTALL_ADVICE}`,
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.logs.filter((log) => log.level === 'error').map((log) => log.message)).toEqual([
      notices[0]?.replace(/^teamkit: /, ''),
    ]);
  });

  it('hands the call to the loaded plugin when its code loads', async () => {
    const notices: string[] = [];
    const plugin = createGuardedPlugin(
      async () => ({
        createTeamkitPlugin: () => async (_input, options) => ({ options }) as never,
      }),
      (line) => notices.push(line),
    );
    await expect(plugin(inputFor(createFakeOpenCodeClient()), { a: 1 })).resolves.toEqual({
      options: { a: 1 },
    });
    expect(notices).toEqual([]);
  });
});
