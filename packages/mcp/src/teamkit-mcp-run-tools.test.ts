import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { issueMemberCredential, openRun } from '@teamkit/team-core';
import { requireLead } from '@teamkit/team-core/state';
import { createFileStore } from '@teamkit/team-core/storage';
import { createTeamFixture, type TeamFixture } from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultText, TEAMKIT_MCP_BIN } from './test-support/mcp-run-fixture.js';

// `create` and `delete` over MCP: the server runs the real `team` CLI (`team run start`,
// `team run stop`), whose process host starts real member processes (that only sleep).

/** The built `team` CLI of this workspace (tests run after `pnpm build`). */
const TEAM_CLI_BIN = fileURLToPath(new URL('../../../apps/team-cli/dist/bin.js', import.meta.url));
const IDLE_AGENT = 'sleep 600';

let fixture: TeamFixture;
const clients: Client[] = [];

async function connect(env: Record<string, string>, args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [TEAMKIT_MCP_BIN, '--tools', 'lead', '--team-cli', TEAM_CLI_BIN, ...args],
    env: { PATH: process.env.PATH ?? '', HOME: fixture.root, TEAMKIT_HOME: fixture.home, ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'teamkit-run-tools', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function memberEnv(runId: string, member: string): Promise<Record<string, string>> {
  return {
    TEAMKIT_RUN: runId,
    TEAMKIT_MEMBER: member,
    TEAMKIT_TOKEN: await issueMemberCredential(fixture.home, runId, member, {
      store: createFileStore({ root: fixture.home }),
    }),
  };
}

const runIds = async () => readdir(join(fixture.home, 'runtime')).catch(() => [] as string[]);
const errorCode = (result: unknown) => /^error ([A-Z_]+):/.exec(resultText(result))?.[1];

beforeAll(async () => {
  fixture = await createTeamFixture({ prefix: 'teamkit-mcp-runs-' });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  for (const runId of await runIds()) {
    const state = await openRun({
      home: fixture.home,
      runId: runId,
      store: createFileStore({ root: fixture.home }),
    })
      .state.read()
      .catch(() => undefined);
    if (state !== undefined && state.status !== 'deleted') {
      const { spawnSync } = await import('node:child_process');
      spawnSync(
        process.execPath,
        [TEAM_CLI_BIN, 'run', 'stop', runId, '--force', '--home', fixture.home],
        {
          env: { PATH: process.env.PATH ?? '', HOME: fixture.root },
        },
      );
    }
  }
  await fixture.cleanup();
});

describe('create and delete over MCP', () => {
  it('the user creates a run; hostile arguments write nothing', async () => {
    const user = await connect({}, ['--as', 'user', '--agent-cmd', IDLE_AGENT]);
    const names = (await user.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['create', 'delete', 'list']));

    const listed = await user.callTool({ name: 'list', arguments: {} });
    expect(listed.isError, resultText(listed)).not.toBe(true);
    expect(
      (listed.structuredContent as { teams: { id: string }[] }).teams.map((team) => team.id),
    ).toContain('coding-team');

    const hostile: unknown[] = [
      { team: '--home=/' },
      { team: '../../etc' },
      { team: 'a'.repeat(65) },
      { team: 42 },
      { team: 'Coding Team' },
      { team: '' },
      { team: ['coding-team'] },
    ];
    for (const args of hostile) {
      const refused = await user.callTool({
        name: 'create',
        arguments: args as Record<string, unknown>,
      });
      expect(refused.isError, JSON.stringify(args)).toBe(true);
      expect(errorCode(refused), resultText(refused)).toBe('INVALID_INPUT');
    }
    const unknown = await user.callTool({ name: 'create', arguments: { team: 'no-such-team' } });
    expect(unknown.isError).toBe(true);
    expect(errorCode(unknown), resultText(unknown)).toBe('TEAM_NOT_FOUND');
    expect(await runIds()).toEqual([]);

    const created = await user.callTool({ name: 'create', arguments: { team: 'coding-team' } });
    expect(created.isError, resultText(created)).not.toBe(true);
    const output = created.structuredContent as { runId: string; team: string; spawned: string[] };
    expect(output.team).toBe('coding-team');
    expect(output.spawned.length).toBeGreaterThan(0);
    // The CLI's process host starts the lead as its own agent: the user is not its lead.
    expect(resultText(created)).toMatch(
      new RegExp(`^run ${output.runId} started: team coding-team, led by \\S+ \\(its own agent\\)`),
    );
    const state = await openRun({
      home: fixture.home,
      runId: output.runId,
      store: createFileStore({ root: fixture.home }),
    }).state.read();
    expect(state.status).toBe('active');
    expect(state.members.filter((member) => member.sessionId !== undefined).length).toBe(
      output.spawned.length,
    );
  }, 120_000);

  it('a worker cannot delete the run; its lead can', async () => {
    const [runId] = await runIds();
    if (runId === undefined) throw new Error('the previous test created no run');
    const lead = requireLead(
      await openRun({
        home: fixture.home,
        runId: runId,
        store: createFileStore({ root: fixture.home }),
      }).state.read(),
    ).name;
    const worker = (
      await openRun({
        home: fixture.home,
        runId: runId,
        store: createFileStore({ root: fixture.home }),
      }).state.read()
    ).members.find((member) => member.name !== lead)?.name as string;

    const workerServer = await connect(await memberEnv(runId, worker), []);
    const workerTools = (await workerServer.listTools()).tools.map((tool) => tool.name);
    expect(workerTools).not.toContain('delete');
    expect(workerTools).not.toContain('create');
    // Not offered, so not callable either: the SDK refuses the call as an unknown tool.
    const unlisted = await workerServer
      .callTool({ name: 'delete', arguments: { force: true } })
      .then(
        (result) => resultText(result),
        (error: Error) => error.message,
      );
    expect(unlisted).toMatch(/not found/i);

    // A lead's server serving several agents, called for the worker: the typed refusal.
    const leadServer = await connect(await memberEnv(runId, lead), ['--member-argument']);
    const refused = await leadServer.callTool({
      name: 'delete',
      arguments: { asMember: worker, force: true },
    });
    expect(refused.isError).toBe(true);
    expect(errorCode(refused), resultText(refused)).toBe('NOT_LEAD');
    const hostile = await leadServer.callTool({ name: 'delete', arguments: { force: 'yes' } });
    expect(errorCode(hostile), resultText(hostile)).toBe('INVALID_INPUT');
    expect(
      (
        await openRun({
          home: fixture.home,
          runId: runId,
          store: createFileStore({ root: fixture.home }),
        }).state.read()
      ).status,
    ).toBe('active');

    const deleted = await leadServer.callTool({ name: 'delete', arguments: { force: true } });
    expect(deleted.isError, resultText(deleted)).not.toBe(true);
    const report = deleted.structuredContent as {
      runId: string;
      status: string;
      stopped: string[];
    };
    expect(report.runId).toBe(runId);
    expect(report.stopped).toContain(worker);
    const after = await openRun({
      home: fixture.home,
      runId: runId,
      store: createFileStore({ root: fixture.home }),
    }).state.read();
    expect(after.status).toBe(report.status);
    expect(['deleted', 'stopped', 'completed']).toContain(after.status);
  }, 120_000);
});
