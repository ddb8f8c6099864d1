import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberEnvironment } from './test-support/member-environment.js';
import { createTempHome, runCli } from './test-support/run-cli.js';
import { writeTestTeam } from './test-support/test-team.js';

// Members that do nothing, so the test alone moves the tasks.
const IDLE_AGENT = 'sleep 600';

let home: string;
let cleanup: () => Promise<void>;
let runId: string;
const team = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--home', home], env);
// A member's environment as its host set it, secret included (read from the member's
// process, which only works for processes of the same user: see docs/security.md).
const asMember = (member: string) => memberEnvironment(home, runId, member);

beforeAll(async () => {
  ({ home, cleanup } = await createTempHome());
  // The coding team's members, all started at once (no parallel bound to wait for).
  await writeTestTeam(home, {
    id: 'crew',
    lead: 'lead',
    members: ['lead', 'architect', 'implementer', 'reviewer', 'tester', 'researcher'],
  });
  const started = await team(['run', 'start', 'crew', '--agent-cmd', IDLE_AGENT, '--json']);
  expect(started.code, started.stderr + started.stdout).toBe(0);
  runId = started.json().runId as string;
});

afterAll(async () => {
  await team(['run', 'stop', runId, '--force', '--json']);
  await cleanup();
});

describe('team commands against a real run', () => {
  it('run start printed the run and its members', async () => {
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const listed = await team(['run', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(listed.json()).toMatchObject({ ok: true, runs: [{ runId, team: 'crew' }] });
  });

  it('run status accepts a unique prefix and reports members and progress', async () => {
    const status = await team(['run', 'status', runId.slice(0, 6), '--json']);
    expect(status.code).toBe(0);
    const report = status.json().status as {
      runId: string;
      members: { name: string }[];
      progress: unknown;
    };
    expect(report.runId).toBe(runId);
    expect(report.members.map((member) => member.name)).toContain('implementer');
    expect(report.progress).toEqual({ done: 0, total: 0 });
    const human = await team(['run', 'status', runId.slice(0, 6)]);
    expect(human.stdout).toContain('Team crew');
  });

  it('walks a task through claim, start, complete, review and approve', async () => {
    const created = await team([
      'task',
      'create',
      runId,
      'Write the parser',
      '--role',
      'implementer',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = (created.json().task as { id: string }).id;
    const implementer = asMember('implementer');
    for (const step of ['claim', 'start', 'complete', 'review']) {
      const moved = await runCli(['task', step, id, '--json'], implementer);
      expect(moved.code, `${step}: ${moved.stdout}${moved.stderr}`).toBe(0);
    }
    const listed = await team(['task', 'list', runId, '--status', 'in_review', '--json']);
    expect((listed.json().tasks as { id: string }[]).map((task) => task.id)).toEqual([id]);
    const approved = await team(['task', 'approve', runId, id, '--json']);
    expect(approved.json()).toMatchObject({
      ok: true,
      task: { id, status: 'approved', owner: 'implementer' },
    });
    const board = await team(['board', runId, '--json']);
    const columns = board.json().columns as { title: string; tasks: { id: string }[] }[];
    expect(columns.map((column) => column.title)).toEqual([
      'pending',
      'in progress',
      'review',
      'done',
      'approved',
    ]);
    expect(columns[4]?.tasks.map((task) => task.id)).toEqual([id]);
    const human = await team(['board', runId]);
    expect(human.stdout).toContain('approved (1)');
  });

  it('send, inbox --wait and ack act as the member named by the environment', async () => {
    const sent = await team([
      'send',
      runId,
      '--to',
      'tester',
      '--summary',
      'hello',
      'Please run the tests',
      '--json',
    ]);
    expect(sent.json()).toMatchObject({ ok: true, from: 'user', delivered: ['tester'] });
    const inbox = await runCli(['inbox', '--json'], asMember('tester'));
    const messages = inbox.json().messages as { messageId: string; from: string; body: string }[];
    expect(messages).toMatchObject([{ from: 'user', body: 'Please run the tests' }]);
    const acked = await runCli(['ack', messages[0]?.messageId ?? '', '--json'], asMember('tester'));
    expect(acked.json()).toMatchObject({ ok: true, member: 'tester' });
    const waiting = runCli(['inbox', '--wait', '10', '--ack', '--json'], asMember('tester'));
    await delay(700);
    await runCli(['send', '--to', 'tester', 'Found a bug', '--json'], asMember('reviewer'));
    const woke = await waiting;
    expect(woke.json()).toMatchObject({
      ok: true,
      messages: [{ from: 'reviewer', body: 'Found a bug' }],
    });
    const empty = await runCli(['inbox', '--json'], asMember('tester'));
    expect(empty.json()).toMatchObject({ ok: true, messages: [] });
  });

  it("checks option values with the shared tool's schema (INVALID_INPUT naming the field)", async () => {
    const badKind = await team([
      'send',
      runId,
      '--to',
      'tester',
      '--kind',
      'shutdown_request',
      'Stop now',
      '--json',
    ]);
    expect(badKind.code).toBe(2);
    const error = badKind.json().error as { code: string; details: { issues: string[] } };
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.details.issues.join(' ')).toContain('kind');
    const badStatus = await team(['task', 'list', runId, '--status', 'bogus', '--json']);
    expect(badStatus.json()).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const badVersion = await team([
      'artifact',
      'get',
      runId,
      'design',
      '--version',
      'two',
      '--json',
    ]);
    expect(badVersion.json()).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('refuses a member acting in another run or home (exit 5, IDENTITY_MISMATCH)', async () => {
    const other = await runCli(
      ['inbox', '00000000-0000-4000-8000-000000000000', '--json'],
      asMember('tester'),
    );
    expect(other.code).toBe(5);
    expect(other.json()).toMatchObject({ ok: false, error: { code: 'IDENTITY_MISMATCH' } });
    const otherHome = await runCli(
      ['inbox', '--home', '/tmp/elsewhere', '--json'],
      asMember('tester'),
    );
    expect(otherHome.code).toBe(5);
  });

  it('maps typed errors to exit codes', async () => {
    const unknownRun = await team(['run', 'status', 'ffffffff', '--json']);
    expect(unknownRun.code).toBe(3);
    expect(unknownRun.json()).toMatchObject({ ok: false, error: { code: 'RUN_NOT_FOUND' } });
    const usage = await team(['task', 'claim', '--json']);
    expect(usage.code).toBe(2);
    expect(usage.json()).toMatchObject({ ok: false, error: { code: 'USAGE' } });
    const bogusStatus = await team(['task', 'list', runId, '--status', 'pending,bogus', '--json']);
    expect(bogusStatus.code).toBe(2);
    expect(bogusStatus.json()).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: expect.stringContaining('"bogus" is no task status'),
      },
    });
    expect(bogusStatus.stdout).toContain('pending, claimed, in_progress');
    const unknownTask = await runCli(['task', 'get', '999', '--json'], asMember('tester'));
    expect(unknownTask.code).toBe(3);
    const created = await team(['task', 'create', runId, 'Contested', '--json']);
    const id = (created.json().task as { id: string }).id;
    expect((await runCli(['task', 'claim', id], asMember('architect'))).code).toBe(0);
    const taken = await runCli(['task', 'claim', id, '--json'], asMember('researcher'));
    expect(taken.code).toBe(4);
    expect(taken.json()).toMatchObject({ ok: false, error: { code: 'ALREADY_CLAIMED' } });
    const notLead = await runCli(['task', 'approve', id, '--json'], asMember('researcher'));
    expect(notLead.code).toBe(5);
    const badTemplate = await team([
      'run',
      'start',
      'coding-team',
      '--agent-cmd',
      'agent; rm -rf x',
      '--json',
    ]);
    expect(badTemplate.code).toBe(2);
  });

  it('8 concurrent claims of one task: exactly one wins, seven exit 4', async () => {
    const created = await team(['task', 'create', runId, 'Raced', '--json']);
    const id = (created.json().task as { id: string }).id;
    const names = [
      'architect',
      'implementer',
      'reviewer',
      'tester',
      'researcher',
      'lead',
      'architect',
      'tester',
    ];
    const results = await Promise.all(
      names.map((name) => runCli(['task', 'claim', id, '--json'], asMember(name))),
    );
    const codes = results.map((result) => result.code).sort();
    expect(codes).toEqual([0, 4, 4, 4, 4, 4, 4, 4]);
  });

  it('teams, doctor and dashboard --once print JSON documents', async () => {
    const teams = await team(['teams', '--json']);
    expect(teams.json()).toMatchObject({
      ok: true,
      teams: expect.arrayContaining([expect.objectContaining({ id: 'crew' })]),
    });
    const doctor = await team(['doctor', '--json']);
    expect(doctor.json()).toMatchObject({ ok: true, report: expect.any(Object) });
    const dashboard = await team(['dashboard', runId, '--once']);
    expect(dashboard.code).toBe(0);
    expect(dashboard.stdout).toMatch(/Progress \[[#-]+\] \d+\/\d+ tasks done/);
  });
});

describe('commands without a run', () => {
  it('refuses an unknown command with a suggestion, also when help is asked for', async () => {
    for (const args of [['member', 'restart', '--help'], ['bogus']]) {
      const unknown = await runCli([...args, '--json']);
      expect(unknown.code, args.join(' ')).toBe(2);
      expect(unknown.json()).toMatchObject({
        ok: false,
        error: {
          code: 'USAGE',
          message: `unknown command '${args[0]}'\n(run team --help for the commands.)`,
        },
      });
    }
    const nested = await runCli(['run', 'restart', '--help']);
    expect(nested.code).toBe(2);
    expect(nested.stdout + nested.stderr).toContain(
      "unknown command 'restart'\n(Did you mean start?)\n(run team run --help for the commands.)",
    );
    const help = await runCli(['run', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: team run');
  });

  it('init writes a starter config once and keeps it after', async () => {
    const temp = await createTempHome();
    try {
      const first = await runCli(['init', '--home', temp.home, '--json']);
      expect(first.json()).toMatchObject({ ok: true, scope: 'global', kept: [] });
      expect((first.json().created as string[]).length).toBe(5);
      const second = await runCli(['init', '--home', temp.home, '--json']);
      expect(second.json()).toMatchObject({ ok: true, created: [] });
      const teams = await runCli(['teams', '--home', temp.home, '--json']);
      expect((teams.json().teams as { id: string }[]).map((entry) => entry.id)).toEqual(
        expect.arrayContaining(['coding-team', 'example-team']),
      );
      const status = await runCli(['run', 'status', '--home', temp.home, '--json']);
      expect(status.stdout.trim().split('\n')).toHaveLength(1);
      expect(status.json()).toEqual({ ok: true, runs: [] });
      const sweep = await runCli(['run', 'sweep', '--home', temp.home, '--json']);
      expect(sweep.json()).toMatchObject({ ok: true, report: { removed: [] } });
      const worktrees = await runCli(['worktree', 'list', '--home', temp.home, '--json']);
      expect(worktrees.json()).toMatchObject({ ok: true, orphans: [] });
    } finally {
      await temp.cleanup();
    }
  });

  it('teams --project adds the project’s teams to the library', async () => {
    const temp = await createTempHome();
    try {
      const project = path.join(temp.home, 'project');
      await mkdir(project);
      await runCli(['init', '--project', project, '--home', temp.home, '--json']);
      const teams = await runCli(['teams', '--project', project, '--home', temp.home, '--json']);
      const listed = teams.json().teams as { id: string; scope: string }[];
      expect(listed.find((entry) => entry.id === 'example-team')).toMatchObject({
        scope: 'project',
      });
      const without = await runCli(['teams', '--home', temp.home, '--json']);
      expect((without.json().teams as { id: string }[]).map((entry) => entry.id)).not.toContain(
        'example-team',
      );
    } finally {
      await temp.cleanup();
    }
  });
});
