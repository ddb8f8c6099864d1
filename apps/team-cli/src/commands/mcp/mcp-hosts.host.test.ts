import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createMemberClient,
  createTeamRuntime,
  issueMemberCredential,
  type Task,
} from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import {
  type AgentCliName,
  createAgentCliEnvironment,
  createMarkerScript,
  createTeamFixture,
  createTestHost,
  describeAgentCliRun,
  findAgentCli,
  findToolResults,
  killRunningAgentClis,
  type MockTurn,
  requestsWithMarker,
  runAgentCli,
  startMockModelServer,
  type TeamFixture,
} from '@teamkit/test-harness';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../test-support/run-cli.js';

// Each real agent CLI loads the Teamkit MCP server from the configuration `team mcp config
// --write` put in its own config file, with the member's identity in its environment as
// Teamkit's launcher sets it; its scripted model sends a message and claims a task.

const TURN_TIMEOUT_MS = 180_000;
const fixtures: TeamFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.cleanup()));
});
afterAll(() => killRunningAgentClis());

/** How each host names the server's tools, and what its model must do first. */
const HOSTS: Record<AgentCliName, { tool: (name: string) => string; prelude: MockTurn[] }> = {
  claude: {
    tool: (name) => `mcp__teamkit__${name}`,
    // Claude Code defers MCP tools: the model loads each tool's schema with ToolSearch first.
    prelude: [
      {
        toolCalls: [
          {
            name: 'ToolSearch',
            arguments: {
              query: 'select:mcp__teamkit__send_message,mcp__teamkit__task_claim',
              max_results: 2,
            },
          },
        ],
      },
    ],
  },
  codex: { tool: (name) => `mcp__teamkit__${name}`, prelude: [] },
  opencode: { tool: (name) => `teamkit_${name}`, prelude: [] },
  gemini: { tool: (name) => `mcp_teamkit_${name}`, prelude: [] },
};

/** Where each environment keeps the file `team mcp config --write` merges into. */
function configFile(cli: AgentCliName, root: string, files: readonly string[]): string {
  if (cli === 'claude') return join(root, 'claude-mcp.json');
  const file = files[0];
  if (file === undefined) throw new Error(`${cli} wrote no config file`);
  return file;
}

async function startRun(fixture: TeamFixture) {
  const runtime = await createTeamRuntime({
    store: createFileStore({ root: fixture.home }),
    home: fixture.home,
    host: createTestHost(),
    env: fixture.env,
  });
  const { runId } = await runtime.startRun({
    id: 'crew',
    name: 'Crew',
    lead: 'lead',
    members: [
      { name: 'lead', role: 'lead', prompt: 'Plan.' },
      { name: 'writer', role: 'implementer', prompt: 'Write.' },
      { name: 'reviewer', role: 'reviewer', prompt: 'Review.' },
    ],
  });
  await createMemberClient({
    store: createFileStore({ root: fixture.home }),
    home: fixture.home,
    runId,
    member: 'lead',
  }).createTask({
    subject: 'Write the spec',
  });
  // The writer's secret, as Teamkit's launcher hands it to the member's process.
  const token = await issueMemberCredential(fixture.home, runId, 'writer', {
    store: createFileStore({ root: fixture.home }),
  });
  return { runId, token };
}

async function inbox(home: string, runId: string, member: string) {
  const folder = join(home, 'runtime', runId, 'inboxes', member);
  const names = (await readdir(folder).catch(() => [] as string[])).filter(
    (name) => name.endsWith('.json') && !name.startsWith('.'),
  );
  return Promise.all(
    names.map(
      async (name) =>
        JSON.parse(await readFile(join(folder, name), 'utf8')) as { from: string; body: string },
    ),
  );
}

describe.each(['claude', 'codex', 'opencode', 'gemini'] as const)('the real %s', (name) => {
  const cli = findAgentCli(name);
  if (!cli.found) console.warn(`Skipping the ${name} MCP host test: ${cli.reason}`);

  it.skipIf(!cli.found)(
    'loads teamkit-mcp from team mcp config, sends as its member and claims a task',
    { timeout: 2 * TURN_TIMEOUT_MS },
    async () => {
      if (!cli.found) return;
      const fixture = await createTeamFixture({ prefix: `teamkit-mcp-${name}-` });
      fixtures.push(fixture);
      const { runId, token } = await startRun(fixture);
      const { tool, prelude } = HOSTS[name];
      const server = await startMockModelServer({
        idleTimeoutMs: 10 * 60_000,
        script: createMarkerScript({
          team: [
            ...prelude,
            {
              toolCalls: [
                {
                  name: tool('send_message'),
                  arguments: { to: 'lead', message: `hello from ${name}` },
                },
              ],
            },
            // A member's server cannot act as another member: the argument is refused.
            {
              toolCalls: [
                {
                  name: tool('send_message'),
                  arguments: { to: 'reviewer', message: 'spoofed', asMember: 'lead' },
                },
              ],
            },
            { toolCalls: [{ name: tool('task_claim'), arguments: { id: '1' } }] },
          ],
        }),
      });
      try {
        const root = join(fixture.root, 'agent');
        await mkdir(root, { recursive: true });
        const environment = createAgentCliEnvironment(name, {
          root,
          server,
          // What Teamkit's launcher gives a member's process.
          env: {
            TEAMKIT_HOME: fixture.home,
            TEAMKIT_RUN: runId,
            TEAMKIT_MEMBER: 'writer',
            TEAMKIT_TOKEN: token,
          },
        });
        const file = configFile(name, root, environment.files);
        const configured = await runCli(
          ['mcp', 'config', '--host', name, '--write', '--file', file],
          { HOME: join(root, 'home') },
        );
        expect(configured.code, configured.stderr).toBe(0);
        const extra =
          name === 'claude'
            ? ['--mcp-config', file, '--strict-mcp-config', '--allowedTools', 'mcp__teamkit']
            : [];
        const run = await runAgentCli(
          cli.path,
          [...environment.firstTurnArgs('[turn:team] Tell the lead, then take task 1.'), ...extra],
          { cwd: fixture.repo, env: environment.env, timeoutMs: TURN_TIMEOUT_MS },
        );
        const report = describeAgentCliRun(`${name} MCP turn`, run);
        console.info(`[timing] ${name} MCP turn: ${run.durationMs} ms, exit ${run.code}`);
        expect(run.code, report).toBe(0);

        const requests = requestsWithMarker(server.requests, 'team').filter(
          (request) => Array.isArray(request.body.tools) && request.body.tools.length > 0,
        );
        const results = findToolResults(requests.at(-1) ?? {}).filter((result) =>
          result.toolName?.includes('teamkit'),
        );
        // OpenCode and Gemini CLI show the model the text; Claude Code and Codex the structure.
        expect(results.map((result) => result.content).join('\n'), report).toMatch(
          /sent to lead|"delivered":\["lead"\]/,
        );
        expect(results.map((result) => result.content).join('\n')).toMatch(/PERMISSION_DENIED/);

        // On disk: the message is in the lead's inbox from the writer; nothing came from the lead.
        expect(await inbox(fixture.home, runId, 'lead'), report).toEqual([
          expect.objectContaining({ from: 'writer', body: `hello from ${name}` }),
        ]);
        expect(await inbox(fixture.home, runId, 'reviewer')).toEqual([]);
        const task = JSON.parse(
          await readFile(join(fixture.home, 'runtime', runId, 'tasks', '1.json'), 'utf8'),
        ) as Task;
        expect(task.owner, report).toBe('writer');
        expect(task.status).toBe('claimed');
      } finally {
        await server.close();
      }
    },
  );
});
