import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createMcpRunFixture,
  type McpRunFixture,
  resultText,
} from './test-support/mcp-run-fixture.js';

let run: McpRunFixture;
beforeEach(async () => {
  run = await createMcpRunFixture();
});
afterEach(async () => {
  await run.cleanup();
});

async function listed(env: Record<string, string>, args: string[] = []) {
  const { client } = await run.connect(env, args);
  return (await client.listTools()).tools.map((tool) => tool.name);
}

describe('tools/list', () => {
  it('offers each identity the tools of its roles, and nothing needing run control it lacks', async () => {
    const member = await listed(run.memberEnv('writer'));
    expect(member).toEqual([
      'status',
      'read_messages',
      'acknowledge',
      'send_message',
      'wait_for_mail',
      'task_list',
      'task_get',
      'task_create',
      'task_claim',
      'task_submit_for_review',
      'task_update',
      'approve_shutdown',
      'reject_shutdown',
      'permission_request',
      'permission_list',
      'artifact_put',
      'artifact_get',
      'artifact_list',
      'run_report',
    ]);
    const lead = await listed(run.memberEnv('lead'), ['--tools', 'all']);
    expect(lead).toEqual(
      expect.arrayContaining(['task_approve', 'shutdown_request', 'permission_decide']),
    );
    expect(lead).not.toContain('create');
    expect(await listed(run.memberEnv('writer'), ['--tools', 'minimal'])).toHaveLength(9);
    const observer = await listed({ TEAMKIT_RUN: run.runId });
    expect(observer).toEqual(['status', 'task_list', 'task_get', 'artifact_get', 'artifact_list']);
    const user = await listed({ TEAMKIT_RUN: run.runId }, ['--as', 'user', '--tools', 'lead']);
    expect(user).toEqual(
      expect.arrayContaining(['task_approve', 'send_message', 'shutdown_request']),
    );
    expect(user).not.toContain('approve_shutdown');
  });

  it('describes every tool with valid JSON Schemas for its input and output', async () => {
    const { client } = await run.connect(run.memberEnv('lead'), [
      '--tools',
      'all',
      '--host',
      'claude',
    ]);
    const { tools } = await client.listTools();
    const ajv = new Ajv2020({ strict: false });
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(() => ajv.compile(tool.outputSchema ?? {}), tool.name).not.toThrow();
      expect(tool.description, tool.name).not.toMatch(/\{[a-z_]+\}/);
    }
    const claim = tools.find((tool) => tool.name === 'task_create');
    expect(claim?.description).toContain('mcp__teamkit__task_claim');
  });
});

describe('tools/call, every tool: a happy path and a refused call', () => {
  it('runs the whole member and lead vocabulary against the run on disk', async () => {
    const lead = (await run.connect(run.memberEnv('lead'), ['--tools', 'all'])).client;
    const writer = (await run.connect(run.memberEnv('writer'), ['--tools', 'all'])).client;
    const shared = (
      await run.connect(run.memberEnv('lead'), ['--tools', 'all', '--member-argument'])
    ).client;
    const call = async (client: typeof lead, name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      return { result, text: resultText(result), data: result.structuredContent as never };
    };
    const refused = async (
      client: typeof lead,
      name: string,
      args: Record<string, unknown>,
      code: string,
    ) => {
      const { result, text } = await call(client, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}: ${text}`).toBe(true);
      expect(text).toMatch(new RegExp(`^error ${code}: `));
      expect((result._meta as Record<string, { code: string }>)['teamkit/error']?.code).toBe(code);
    };
    const covered = new Set<string>();
    const ok = async (client: typeof lead, name: string, args: Record<string, unknown> = {}) => {
      const answer = await call(client, name, args);
      expect(answer.result.isError, `${name}: ${answer.text}`).toBeFalsy();
      expect(answer.result.structuredContent, name).toBeDefined();
      covered.add(name);
      return answer;
    };

    expect((await ok(writer, 'status')).text).toContain(`run ${run.runId}: team crew`);
    await refused(writer, 'status', { extra: 1, asMember: 'lead' }, 'PERMISSION_DENIED');

    const sent = await ok(writer, 'send_message', { to: 'lead', message: 'hello lead' });
    expect(await run.unread('lead')).toMatchObject([{ from: 'writer', body: 'hello lead' }]);
    await refused(writer, 'send_message', { to: 'nobody', message: 'x' }, 'UNKNOWN_RECIPIENT');

    const read = await ok(lead, 'read_messages');
    expect(read.text).toContain('hello lead');
    await refused(lead, 'read_messages', { ack: 'yes' }, 'INVALID_INPUT');
    await ok(lead, 'acknowledge', {
      messageIds: [(sent.data as { messageId: string }).messageId],
    });
    expect(await run.unread('lead')).toEqual([]);
    await refused(lead, 'acknowledge', { messageIds: [] }, 'INVALID_INPUT');

    const waited = await ok(lead, 'wait_for_mail', { timeoutSeconds: 1 });
    expect(waited.data).toMatchObject({ timedOut: true });
    await refused(lead, 'wait_for_mail', { timeoutSeconds: 3600 }, 'INVALID_INPUT');

    expect((await ok(lead, 'task_create', { subject: 'Write the spec' })).text).toBe(
      'task 1 created',
    );
    await refused(writer, 'task_create', { subject: '' }, 'INVALID_INPUT');
    expect((await ok(writer, 'task_list', { ready: true })).text).toBe(
      '#1 [pending] Write the spec',
    );
    await refused(writer, 'task_list', { status: 'lost' }, 'INVALID_INPUT');
    await ok(writer, 'task_get', { id: '1' });
    await refused(writer, 'task_get', { id: '99' }, 'UNKNOWN_TASK');
    await ok(writer, 'task_claim', { id: 1 });
    expect((await run.task('1')).owner).toBe('writer');
    await refused(lead, 'task_claim', { id: '1' }, 'ALREADY_CLAIMED');
    await ok(writer, 'task_update', { id: '1', status: 'in_progress' });
    await refused(lead, 'task_update', { id: '1' }, 'INVALID_INPUT');
    await ok(writer, 'task_update', { id: '1', status: 'completed' });
    await ok(writer, 'task_submit_for_review', { id: '1' });
    await refused(writer, 'task_submit_for_review', { id: '1' }, 'INVALID_TRANSITION');
    // A member's server does not offer lead tools; a shared server acting for it refuses them.
    await expect(writer.callTool({ name: 'task_approve', arguments: { id: '1' } })).rejects.toThrow(
      /Tool task_approve not found/,
    );
    await refused(shared, 'task_approve', { id: '1', asMember: 'writer' }, 'NOT_LEAD');
    await ok(lead, 'task_request_changes', { id: '1', note: 'Add a test' });
    await refused(
      shared,
      'task_request_changes',
      { id: '1', note: 'x', asMember: 'writer' },
      'NOT_LEAD',
    );
    await ok(writer, 'task_claim', { id: '1' });
    await ok(writer, 'task_update', { id: '1', status: 'in_progress' });
    await ok(writer, 'task_update', { id: '1', status: 'completed' });
    await ok(writer, 'task_submit_for_review', { id: '1' });
    await ok(lead, 'task_approve', { id: '1' });
    expect((await run.task('1')).status).toBe('approved');

    const asked = await ok(writer, 'permission_request', { action: 'write', path: '/etc/hosts' });
    await refused(
      writer,
      'permission_request',
      { action: 'write', path: 'relative' },
      'INVALID_INPUT',
    );
    await refused(
      shared,
      'permission_decide',
      { requestId: 'x', decision: 'approved', asMember: 'writer' },
      'NOT_LEAD',
    );
    await ok(lead, 'permission_decide', {
      requestId: (asked.data as { request: { id: string } }).request.id,
      decision: 'approved',
    });
    const requests = await ok(writer, 'permission_list', { pending: false });
    expect(requests.data).toMatchObject({ requests: [{ member: 'writer', status: 'approved' }] });
    await refused(writer, 'permission_list', { pending: 'yes' }, 'INVALID_INPUT');

    const goal = await ok(lead, 'goal_set', { goal: 'Ship', criteria: ['the spec is approved'] });
    expect(goal.text).toContain('the spec is approved');
    await refused(shared, 'goal_set', { goal: 'Other', asMember: 'writer' }, 'NOT_LEAD');
    const met = await ok(lead, 'criterion_evidence', { criterion: '1', kind: 'task', ref: '1' });
    expect(met.data).toMatchObject({ unmet: [] });
    await refused(
      lead,
      'criterion_evidence',
      { criterion: '1', kind: 'task', ref: '99' },
      'UNKNOWN_TASK',
    );
    expect((await ok(writer, 'run_report')).text).toContain('Write the spec');
    await refused(writer, 'run_report', { extra: true, asMember: 'lead' }, 'PERMISSION_DENIED');
    await refused(shared, 'run_merge', { dryRun: true, asMember: 'writer' }, 'NOT_LEAD');
    // This run has no repository; merging real branches is proven by team-core's
    // integration test and the CLI's run-lifecycle test, which have one.
    await refused(lead, 'run_merge', { dryRun: true }, 'INVALID_INPUT');
    covered.add('run_merge');

    const published = await ok(writer, 'artifact_put', { name: 'design', body: '# Design' });
    expect((published.data as { artifact: { revision: number } }).artifact.revision).toBe(1);
    await refused(writer, 'artifact_put', { name: '../../state', body: 'x' }, 'INVALID_INPUT');
    expect((await ok(lead, 'artifact_get', { name: 'design' })).text).toContain('# Design');
    await refused(lead, 'artifact_get', { name: 'missing' }, 'UNKNOWN_ARTIFACT');
    expect((await ok(lead, 'artifact_list')).text).toContain('design v1 by writer');
    await refused(lead, 'artifact_list', { extra: true, asMember: 'writer' }, 'PERMISSION_DENIED');

    await refused(shared, 'shutdown_request', { member: 'lead', asMember: 'writer' }, 'NOT_LEAD');
    await refused(writer, 'approve_shutdown', {}, 'INVALID_TRANSITION');
    await refused(writer, 'reject_shutdown', { reason: '' }, 'INVALID_INPUT');
    await ok(lead, 'shutdown_request', { member: 'writer', reason: 'done' });
    await ok(writer, 'reject_shutdown', { reason: 'one more test' });
    await ok(lead, 'shutdown_request', { member: 'writer' });
    await ok(writer, 'approve_shutdown');

    const offered = (await lead.listTools()).tools.map((tool) => tool.name);
    expect([...covered].sort()).toEqual([...offered].sort());
  });
});
