import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isTeamkitError } from '../errors/index.js';
import { createMemberClient } from '../runtime/member-client.js';
import { renderTeamProtocol, TEAM_PROTOCOL_OPERATIONS } from '../runtime/team-protocol.js';
import { createFileStore } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { runTeamTool } from './run-team-tool.js';
import { createTeamRunView } from './team-run-view.js';
import type { AnyTeamTool, TeamToolCaller, TeamToolContext } from './team-tool.js';
import { describeTeamTool, findTeamTool, TEAM_TOOLS, teamToolsOfProfile } from './team-tools.js';
import { mayCallTool } from './tool-access.js';
import { createToolVocabulary } from './tool-vocabulary.js';

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

const named = (name: string) => `t_${name}`;

function contextFor(caller: TeamToolCaller): TeamToolContext {
  const acting =
    caller.kind === 'member' ? caller.member : caller.kind === 'user' ? 'user' : undefined;
  return {
    caller,
    async client() {
      if (acting === undefined) throw new Error('no client for observers');
      return createMemberClient({
        store: createFileStore({ root: fixture.home }),
        home: fixture.home,
        runId: fixture.runId,
        member: acting,
      });
    },
    view: async () =>
      createTeamRunView({
        store: createFileStore({ root: fixture.home }),
        home: fixture.home,
        runId: fixture.runId,
      }),
    toolName: named,
  };
}

const member = (name: string): TeamToolCaller => ({
  kind: 'member',
  runId: fixture.runId,
  member: name,
  isLead: name === 'lead',
  lead: 'lead',
});

function tool(name: string): AnyTeamTool {
  const found = findTeamTool(name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

async function call(name: string, args: unknown, caller: TeamToolCaller) {
  return runTeamTool(tool(name), args, contextFor(caller));
}

async function refusal(name: string, args: unknown, caller: TeamToolCaller) {
  try {
    await call(name, args, caller);
  } catch (error) {
    if (isTeamkitError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`${name} was not refused`);
}

describe('the definitions', () => {
  it('have unique snake_case names, JSON-Schema-able object schemas and known tool marks', () => {
    const names = TEAM_TOOLS.map((candidate) => candidate.name);
    expect(new Set(names).size).toBe(names.length);
    for (const candidate of TEAM_TOOLS) {
      expect(candidate.name).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
      expect(z.toJSONSchema(candidate.input, { io: 'input' }).type).toBe('object');
      expect(z.toJSONSchema(candidate.output).type).toBe('object');
      expect(candidate.roles.length).toBeGreaterThan(0);
      expect(describeTeamTool(candidate, named)).not.toMatch(/\{[a-z_]+\}/);
    }
  });

  it('offer observers only tools that write nothing', () => {
    const observer: TeamToolCaller = { kind: 'observer', runId: fixture.runId };
    const offered = TEAM_TOOLS.filter((candidate) => mayCallTool(candidate, observer));
    expect(offered.map((candidate) => candidate.name).sort()).toEqual(
      ['artifact_get', 'artifact_list', 'list', 'status', 'task_get', 'task_list'].sort(),
    );
    expect(offered.every((candidate) => candidate.readOnly)).toBe(true);
  });

  it('grow from the minimal profile to all', () => {
    const sizes = (['minimal', 'member', 'lead', 'all'] as const).map(
      (profile) => teamToolsOfProfile(profile).length,
    );
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(teamToolsOfProfile('all')).toHaveLength(TEAM_TOOLS.length);
    expect(() => teamToolsOfProfile('huge' as never)).toThrow(/Unknown tool profile "huge"/);
  });

  it('word the team protocol with exactly the tools offered', () => {
    for (const profile of ['minimal', 'member', 'lead', 'all'] as const) {
      const tools = teamToolsOfProfile(profile);
      const vocabulary = createToolVocabulary(tools, named);
      const mentioned = Object.values(vocabulary)
        .join(' ')
        .match(/t_[a-z_]+/g);
      for (const name of mentioned ?? []) {
        expect(tools.map((candidate) => named(candidate.name))).toContain(name);
      }
      const protocol = renderTeamProtocol({
        runId: fixture.runId,
        teamName: 'fixture-team',
        member: 'lead',
        role: 'lead',
        lead: 'lead',
        members: [{ name: 'lead', role: 'lead' }],
        vocabulary,
      });
      expect(protocol).toContain(named('send_message'));
    }
    const all = createToolVocabulary(TEAM_TOOLS, named);
    expect(Object.keys(all).sort()).toEqual([...TEAM_PROTOCOL_OPERATIONS].sort());
    expect(all.approveTask).toBe('the `t_task_approve` tool');
  });
});

describe('calls', () => {
  it('send, read without acknowledging, acknowledge and wait, as the calling member', async () => {
    const sent = await call('send_message', { to: 'writer', message: 'hello' }, member('lead'));
    expect(sent.output.delivered).toEqual(['writer']);
    expect(sent.text).toBe(`message ${sent.output.messageId} sent to writer`);
    const read = await call('read_messages', {}, member('writer'));
    expect(read.output.messages).toMatchObject([{ from: 'lead', body: 'hello' }]);
    expect(read.text).toContain('<team_message');
    expect((await call('read_messages', {}, member('writer'))).output.messages).toHaveLength(1);
    await call('acknowledge', { messageIds: [sent.output.messageId] }, member('writer'));
    expect((await call('read_messages', {}, member('writer'))).output.messages).toEqual([]);
    const waited = await call('wait_for_mail', { timeoutSeconds: 1 }, member('writer'));
    expect(waited.output).toEqual({ messages: [], acknowledged: false, timedOut: true });
    const pending = call('wait_for_mail', { timeoutSeconds: 30, ack: true }, member('writer'));
    await call('send_message', { to: 'writer', message: 'later' }, member('lead'));
    const arrived = await pending;
    expect(arrived.output).toMatchObject({ timedOut: false, acknowledged: true });
    expect(arrived.output.messages[0]?.body).toBe('later');
  });

  it('create, claim, move, review and approve tasks with the right roles', async () => {
    const created = await call('task_create', { subject: 'Spec' }, member('lead'));
    expect(created.text).toBe('task 1 created');
    expect((await call('task_list', { ready: true }, member('writer'))).text).toBe(
      '#1 [pending] Spec',
    );
    await call('task_claim', { id: 1 }, member('writer'));
    await call('task_update', { id: '1', status: 'in_progress' }, member('writer'));
    await call('task_update', { id: '1', status: 'completed' }, member('writer'));
    const submitted = await call('task_submit_for_review', { id: '1' }, member('writer'));
    expect(submitted.output.task).toMatchObject({ status: 'in_review', owner: 'writer' });
    expect(await refusal('task_approve', { id: '1' }, member('writer'))).toEqual({
      code: 'NOT_LEAD',
      message: 'Only the lead (lead) may approve task 1.',
    });
    const back = await call(
      'task_request_changes',
      { id: '1', note: 'Add a test' },
      member('lead'),
    );
    expect(back.output.task).toMatchObject({ status: 'pending', needsFix: true });
    expect((await call('task_get', { id: '1' }, member('writer'))).text).toContain(
      'review note: Add a test',
    );
  });

  it('submits a claimed task for review in one call, each move recorded, as the descriptions say', async () => {
    await call('task_create', { subject: 'Spec' }, member('lead'));
    await call('task_create', { subject: 'Tests' }, member('lead'));
    await call('task_claim', { id: '1' }, member('writer'));
    expect(await refusal('task_submit_for_review', { id: '1' }, member('writer-2'))).toMatchObject({
      code: 'NOT_OWNER',
    });
    const submitted = await call('task_submit_for_review', { id: '1' }, member('writer'));
    expect(submitted.output.task).toMatchObject({ status: 'in_review', owner: 'writer' });
    await call('task_claim', { id: '2' }, member('writer'));
    await call('task_update', { id: '2', status: 'in_progress' }, member('writer'));
    const updated = await call('task_update', { id: '2', status: 'in_review' }, member('writer'));
    expect(updated.output.task).toMatchObject({ status: 'in_review' });
    const log = await readFile(path.join(fixture.home, fixture.keys.events), 'utf8');
    const moves = log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((event) => event.type === 'task.status')
      .map((event) => `${event.actor} ${event.ids[0]}:${event.data.from}>${event.data.to}`);
    expect(moves).toEqual([
      'writer 1:claimed>in_progress',
      'writer 1:in_progress>completed',
      'writer 1:completed>in_review',
      'writer 2:claimed>in_progress',
      'writer 2:in_progress>completed',
      'writer 2:completed>in_review',
    ]);
    const claim = describeTeamTool(tool('task_claim'), named);
    expect(claim).toContain('claimed → in_progress → completed');
    expect(claim).toContain('t_task_submit_for_review');
    expect(describeTeamTool(tool('task_submit_for_review'), named)).toContain(
      'first through in_progress and completed',
    );
  });

  it('runs the shutdown protocol and permission requests', async () => {
    await call('shutdown_request', { member: 'writer' }, { kind: 'user', runId: fixture.runId });
    const rejected = await call('reject_shutdown', { reason: 'busy' }, member('writer'));
    expect(rejected.text).toBe('writer rejected the shutdown');
    const asked = await call(
      'permission_request',
      { action: 'write', path: '/etc/hosts', reason: 'need it' },
      member('writer'),
    );
    expect(asked.output.request).toMatchObject({ status: 'pending', member: 'writer' });
    const mail = (await call('read_messages', {}, member('lead'))).output.messages;
    expect(mail.map((message: { summary?: string }) => message.summary)).toContain(
      'permission request',
    );
    expect(
      await refusal(
        'permission_decide',
        { requestId: asked.output.request.id, decision: 'approved' },
        member('writer'),
      ),
    ).toMatchObject({ code: 'NOT_LEAD' });
    const decided = await call(
      'permission_decide',
      { requestId: asked.output.request.id, decision: 'denied', reason: 'no' },
      member('lead'),
    );
    expect(decided.output.request).toMatchObject({ status: 'denied', decidedBy: 'lead' });
    const told = (await call('read_messages', {}, member('writer'))).output.messages;
    expect(told.map((message: { summary?: string }) => message.summary)).toContain(
      'permission denied',
    );
  });

  it('shuts everyone down with "*", answering by request id', async () => {
    const user: TeamToolCaller = { kind: 'user', runId: fixture.runId };
    expect(await refusal('shutdown_request', { member: '*' }, member('writer'))).toMatchObject({
      code: 'NOT_LEAD',
    });
    const asked = await call('shutdown_request', { member: '*' }, user);
    expect(
      asked.output.requests.map((request: { member: string }) => request.member).sort(),
    ).toEqual(['writer', 'writer-2']);
    expect(asked.text).toMatch(/^shutdown requested from writer \(request [0-9a-f-]{36}\)/);
    const id = asked.output.requests[0].id as string;
    const approved = await call('approve_shutdown', { requestId: id }, member('writer'));
    expect(approved.output).toEqual({ runId: fixture.runId, member: 'writer', requestId: id });
    const replies = (await call('read_messages', {}, user)).output.messages;
    expect(replies.map((message: { kind: string }) => message.kind)).toEqual(['shutdown_approved']);
  });

  it('sets the goal, attaches evidence, and leaves waivers to the user', async () => {
    const user: TeamToolCaller = { kind: 'user', runId: fixture.runId };
    const set = await call(
      'goal_set',
      { goal: 'Ship the parser', criteria: ['parses', 'tested'] },
      member('lead'),
    );
    expect(set.output.unmet).toEqual(['1', '2']);
    expect(set.text).toContain('[ ] 1. parses (no evidence yet)');
    expect(await refusal('goal_set', { goal: 'x' }, member('writer'))).toMatchObject({
      code: 'NOT_LEAD',
    });
    await call('task_create', { subject: 'Parser' }, member('lead'));
    const evidence = await call(
      'criterion_evidence',
      { criterion: '1', kind: 'task', ref: '1' },
      member('lead'),
    );
    expect(evidence.output.unmet).toEqual(['2']);
    expect(
      await refusal(
        'criterion_evidence',
        { criterion: '2', kind: 'task', ref: '9' },
        member('lead'),
      ),
    ).toMatchObject({ code: 'UNKNOWN_TASK' });
    expect(
      await refusal(
        'criterion_evidence',
        { criterion: '2', kind: 'commit', ref: 'abc123' },
        member('lead'),
      ),
    ).toMatchObject({ code: 'INVALID_INPUT' });
    const sent = await call('send_message', { to: 'user', message: 'tests pass' }, member('lead'));
    await call(
      'criterion_evidence',
      { criterion: '2', kind: 'message', ref: sent.output.messageId.slice(0, 8) },
      member('lead'),
    );
    expect(
      await refusal('criterion_waive', { criterion: '2', reason: 'x' }, member('lead')),
    ).toMatchObject({ code: 'PERMISSION_DENIED' });
    const waived = await call('criterion_waive', { criterion: '1', reason: 'fine' }, user);
    expect(waived.output.goal.criteria[1].evidence).toEqual([
      { kind: 'message', ref: sent.output.messageId },
    ]);
    expect(waived.output.unmet).toEqual([]);
  });

  it('lists permission requests by who may see them, and reports the run', async () => {
    await call('permission_request', { action: 'write', path: '/srv/a' }, member('writer'));
    await call('permission_request', { action: 'write', path: '/srv/b' }, member('writer-2'));
    const own = await call('permission_list', {}, member('writer'));
    expect(own.output.requests.map((request: { path: string }) => request.path)).toEqual([
      '/srv/a',
    ]);
    const all = await call(
      'permission_list',
      { pending: true },
      { kind: 'user', runId: fixture.runId },
    );
    expect(all.output.requests).toHaveLength(2);
    const report = await call('run_report', {}, member('writer'));
    expect(report.output.status).toBe('active');
    expect(report.text).toContain(`run ${fixture.runId} (fixture-team): active`);
    expect(await refusal('run_merge', {}, member('writer'))).toMatchObject({ code: 'NOT_LEAD' });
    expect(await refusal('run_merge', {}, member('lead'))).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('has no repository'),
    });
  });

  it('refuses bad arguments, observers that write and run control it does not have', async () => {
    const before = await fixture.snapshot({ withEvents: true });
    expect(await refusal('send_message', { to: 'writer' }, member('lead'))).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^t_send_message got bad arguments: message: /),
    });
    expect(await refusal('task_claim', { id: '0' }, member('writer'))).toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(
      await refusal('task_create', { subject: 'x' }, { kind: 'observer', runId: fixture.runId }),
    ).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(await refusal('delete', {}, member('lead'))).toMatchObject({
      code: 'HOST_CAPABILITY_UNSUPPORTED',
    });
    expect(await refusal('create', {}, member('lead'))).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await refusal('create', {}, member('writer'))).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('members cannot create nested teams'),
    });
    expect(await fixture.snapshot({ withEvents: true })).toEqual(before);
  });

  it('publishes and reads artifacts as the calling member', async () => {
    const put = await call('artifact_put', { name: 'design', body: '# Plan' }, member('writer'));
    expect(put.text).toBe('published design v1 by writer, 6 bytes');
    await call('artifact_put', { name: 'design', body: '# Plan, revised' }, member('lead'));
    const observer: TeamToolCaller = { kind: 'observer', runId: fixture.runId };
    const got = await call('artifact_get', { name: 'design', revision: 1 }, observer);
    expect(got.output.artifact).toMatchObject({ author: 'writer', body: '# Plan', revision: 1 });
    expect((await call('artifact_list', {}, observer)).text).toBe(
      '- design v2 by lead, 15 bytes (2 version(s))',
    );
    expect(
      await refusal('artifact_put', { name: '../x', body: 'x' }, member('writer')),
    ).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('lets observers read the status and the tasks', async () => {
    await call('task_create', { subject: 'Spec' }, member('lead'));
    const observer: TeamToolCaller = { kind: 'observer', runId: fixture.runId };
    const status = await call('status', {}, observer);
    expect(status.output.members.map((line: { name: string }) => line.name)).toEqual([
      'lead',
      'writer',
      'writer-2',
    ]);
    expect(status.text).toContain('tasks: 0/1 done (pending 1)');
    expect((await call('task_list', {}, observer)).output.tasks).toHaveLength(1);
  });
});
