import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Hooks } from '@opencode-ai/plugin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createFakeOpenCodeClient,
  type FakeOpenCodeClient,
} from '../test-support/fake-opencode-client.js';
import { createPairTeamProject, type PairTeamProject } from '../test-support/pair-team-project.js';
import { callTool, startPlugin } from '../test-support/start-plugin.js';

const LEAD = 'ses_lead0001';
let fixture: PairTeamProject;
let client: FakeOpenCodeClient;
let hooks: Hooks;

async function runState(runId: string) {
  return JSON.parse(await readFile(join(fixture.home, 'runtime', runId, 'state.json'), 'utf8')) as {
    status: string;
    leadSessionId?: string;
    members: { name: string; sessionId?: string; status: string }[];
  };
}

async function startTeam(): Promise<{ runId: string; writer: string }> {
  const output = await callTool(hooks, 'team_create', { team: 'pair' }, LEAD);
  const runId = /run (\S+) started/.exec(output)?.[1];
  if (runId === undefined) throw new Error(`team_create said: ${output}`);
  const writer = (await runState(runId)).members.find((member) => member.name === 'writer');
  if (writer?.sessionId === undefined) throw new Error('the writer has no session');
  return { runId, writer: writer.sessionId };
}

beforeEach(async () => {
  fixture = await createPairTeamProject();
  client = createFakeOpenCodeClient(['pair-lead', 'pair-writer']);
  client.addSession(LEAD, { agent: 'pair-lead' });
  hooks = await startPlugin(client, fixture);
});
afterEach(async () => {
  await fixture.cleanup();
});

describe('team_create', () => {
  it('makes the calling session the lead and starts members as its child sessions', async () => {
    const output = await callTool(hooks, 'team_create', { team: 'pair' }, LEAD);
    expect(output).toMatch(/^run \S+ started: team pair, you lead as lead\nstarted: writer$/);
    const runId = /run (\S+) started/.exec(output)?.[1] ?? '';
    const writer =
      (await runState(runId)).members.find((member) => member.name === 'writer')?.sessionId ?? '';
    const state = await runState(runId);
    expect(state.leadSessionId).toBe(LEAD);
    expect(client.sessionInfo(writer)?.parentID).toBe(LEAD);
    const spawnPrompt = client.calls.find(
      (call) =>
        call.method === 'session.promptAsync' &&
        (call.options as { path: { id: string } }).path.id === writer,
    )?.options as { body: { agent?: string; model?: unknown; parts: { text: string }[] } };
    expect(spawnPrompt.body.agent).toBe('pair-writer');
    // Without a model of its own, a member runs on the lead session's model.
    expect(spawnPrompt.body.model).toEqual({ providerID: 'mock', modelID: 'mock-model' });
    expect(spawnPrompt.body.parts[0]?.text).toContain(`run ${runId}`);
  });

  it('refuses a second team for the same lead session', async () => {
    const { runId } = await startTeam();
    const output = await callTool(hooks, 'team_create', { team: 'pair' }, LEAD);
    expect(output).toBe(
      `error INVALID_INPUT: This session already leads run ${runId} (team pair); end it with team_delete before starting another.`,
    );
  });

  it('refuses nested teams to members', async () => {
    const { writer } = await startTeam();
    const output = await callTool(hooks, 'team_create', {}, writer);
    expect(output).toMatch(
      /^error PERMISSION_DENIED: You are writer in run \S+; members cannot create nested teams/,
    );
  });

  it('names an unknown team with the known ones', async () => {
    const output = await callTool(hooks, 'team_create', { team: 'nope' }, LEAD);
    expect(output).toMatch(
      /^error TEAM_NOT_FOUND: No team "nope" \(enabled teams: .*pair.*; built-in teams: /,
    );
  });
});

describe('identity and lead-only operations', () => {
  it('refuses team operations to a session outside any run', async () => {
    for (const name of ['team_status', 'team_send_message', 'team_task_list', 'team_delete']) {
      const output = await callTool(hooks, name, { to: 'writer', message: 'x' }, 'ses_stranger');
      expect(output).toBe(
        'error RUN_NOT_FOUND: This session is not part of a running team. Start one with team_create.',
      );
    }
  });

  it('refuses lead-only operations to members with a readable error', async () => {
    const { writer } = await startTeam();
    expect(await callTool(hooks, 'team_delete', {}, writer)).toBe(
      'error NOT_LEAD: Only the lead (lead) may end the team.',
    );
    expect(await callTool(hooks, 'team_shutdown_request', { member: 'lead' }, writer)).toBe(
      'error NOT_LEAD: Only the lead (lead) may ask lead to shut down.',
    );
  });

  it('takes the sender from the session, not from an argument', async () => {
    const { runId, writer } = await startTeam();
    const output = await callTool(
      hooks,
      'team_send_message',
      { to: 'lead', message: 'done', from: 'lead' },
      writer,
    );
    expect(output).toMatch(/^message \S+ sent to lead$/);
    const inbox = join(fixture.home, 'runtime', runId, 'inboxes', 'lead');
    await vi.waitFor(async () => {
      const processed = await readdir(join(inbox, 'processed')).catch(() => []);
      expect(processed).toHaveLength(1);
    });
    const file = (await readdir(join(inbox, 'processed')))[0] ?? '';
    const message = JSON.parse(await readFile(join(inbox, 'processed', file), 'utf8'));
    expect(message.from).toBe('writer');
  });
});

describe('mail and tasks', () => {
  it('creates dependent tasks and delivers mail to the member session', async () => {
    const { runId, writer } = await startTeam();
    expect(await callTool(hooks, 'team_task_create', { subject: 'Write the spec' }, LEAD)).toBe(
      'task 1 created',
    );
    expect(
      await callTool(
        hooks,
        'team_task_create',
        { subject: 'Write the code', blockedBy: ['1'] },
        LEAD,
      ),
    ).toBe('task 2 created (blocked by 1)');
    expect(await callTool(hooks, 'team_task_list', {}, writer)).toBe(
      '#1 [pending] Write the spec (blocks 2)\n#2 [pending] Write the code (blocked by 1)',
    );
    expect(await callTool(hooks, 'team_task_claim', { id: '2' }, writer)).toMatch(
      /^error BLOCKED_BY: /,
    );

    const sent = await callTool(
      hooks,
      'team_send_message',
      { to: 'writer', message: 'Start with #1' },
      LEAD,
    );
    const messageId = /^message (\S+) sent to writer$/.exec(sent)?.[1] ?? '';
    await vi.waitFor(() => {
      expect(client.received(writer).join('\n')).toContain(messageId);
    });
    await vi.waitFor(() =>
      expect(
        existsSync(
          join(
            fixture.home,
            'runtime',
            runId,
            'inboxes',
            'writer',
            'processed',
            `${messageId}.json`,
          ),
        ),
      ).toBe(true),
    );
    const status = await callTool(hooks, 'team_status', {}, LEAD);
    expect(status).toContain(`run ${runId}: team pair, active`);
    expect(status).toContain('- writer (writer):');
    expect(status).toContain('tasks: 0/2 done (pending 2)');
  });

  it('reads without acknowledging, and acknowledges by id', async () => {
    const { runId, writer } = await startTeam();
    client.setBusy(LEAD, true);
    await callTool(hooks, 'team_send_message', { to: 'lead', message: 'report' }, writer);
    const read = await callTool(hooks, 'team_read_messages', {}, LEAD);
    expect(read).toMatch(/^<team_message id="\S+" from="writer" kind="message"/);
    expect(read).toContain('report');
    const processedFolder = join(fixture.home, 'runtime', runId, 'inboxes', 'lead', 'processed');
    expect(await readdir(processedFolder).catch(() => [])).toHaveLength(0);
    const messageId = /id="(\S+)"/.exec(read)?.[1] ?? '';
    expect(await callTool(hooks, 'team_acknowledge', { messageIds: [messageId] }, LEAD)).toBe(
      'acknowledged 1 message(s)',
    );
    expect(await callTool(hooks, 'team_read_messages', {}, LEAD)).toBe('no unread messages');
    expect(await readdir(processedFolder)).toEqual([`${messageId}.json`]);
  });

  it('refuses bad arguments before anything is written', async () => {
    const { runId, writer } = await startTeam();
    expect(await callTool(hooks, 'team_send_message', { to: 'lead', message: 42 }, writer)).toMatch(
      /^error INVALID_INPUT: team_send_message got bad arguments: message: /,
    );
    expect(await callTool(hooks, 'team_task_claim', { id: '../1' }, writer)).toMatch(
      /^error INVALID_INPUT: team_task_claim got bad arguments: id: a task id is a positive number/,
    );
    const inbox = join(fixture.home, 'runtime', runId, 'inboxes', 'lead');
    expect((await readdir(inbox).catch(() => [])).filter((name) => name.endsWith('.json'))).toEqual(
      [],
    );
  });

  it('delivers a lead’s mail from its newest run once the old run is deleted', async () => {
    const first = await startTeam();
    expect(await callTool(hooks, 'team_delete', {}, LEAD)).toMatch(/ deleted\nstopped: writer$/);
    const second = await startTeam();
    expect(second.runId).not.toBe(first.runId);
    client.setBusy(LEAD, true);
    const sent = await callTool(
      hooks,
      'team_send_message',
      { to: 'lead', message: 'report from the new run' },
      second.writer,
    );
    const messageId = /^message (\S+) sent to lead$/.exec(sent)?.[1] ?? '';
    client.setBusy(LEAD, false);
    await hooks.event?.({
      event: { type: 'session.idle', properties: { sessionID: LEAD } } as never,
    });
    await vi.waitFor(() => expect(client.received(LEAD).join('\n')).toContain(messageId));
  });

  it('runs the shutdown protocol and ends the run', async () => {
    const { runId, writer } = await startTeam();
    // The request's id is what the member's approval or rejection names.
    expect(await callTool(hooks, 'team_shutdown_request', { member: 'writer' }, LEAD)).toMatch(
      /^shutdown requested from writer \(request [0-9a-f-]{36}\)$/,
    );
    expect(await callTool(hooks, 'team_approve_shutdown', {}, writer)).toBe(
      'writer approved the shutdown',
    );
    await hooks.event?.({
      event: { type: 'session.idle', properties: { sessionID: writer } } as never,
    });
    await vi.waitFor(async () => {
      const state = await runState(runId);
      expect(state.members.find((member) => member.name === 'writer')?.status).toBe('terminated');
    });
    expect(await callTool(hooks, 'team_delete', {}, LEAD)).toBe(`run ${runId} deleted`);
    expect((await runState(runId)).status).toBe('deleted');
    // The lead may start a new run once the old one is gone.
    expect(await callTool(hooks, 'team_create', { team: 'pair' }, LEAD)).toMatch(
      /^run \S+ started/,
    );
  });
});
