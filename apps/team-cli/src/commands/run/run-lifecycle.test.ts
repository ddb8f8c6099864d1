import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  memberEnvironment,
  memberPid,
  readStateFile,
} from '../../test-support/member-environment.js';
import { createTempHome, runCli } from '../../test-support/run-cli.js';
import { writeTestTeam } from '../../test-support/test-team.js';

// A run's whole life through the `team` command: a goal with a criterion, members that
// commit in their worktrees, `run merge` (clean, then a conflict that changes nothing),
// evidence, shutdowns answered, the run `completed`, and `run report`. Real git, real
// member processes (that do nothing, so only the commands act).

const execGit = promisify(execFile);
const IDLE_AGENT = 'sleep 600';
const GIT_USER = ['-c', 'user.name=teamkit-test', '-c', 'user.email=test@teamkit.invalid'];

let home: string;
let cleanup: () => Promise<void>;
let repo: string;
let runId: string;
const team = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--home', home, '--json'], env, { timeoutMs: 60_000 });
const asMember = (member: string) => memberEnvironment(home, runId, member);
const git = async (cwd: string, args: string[]) =>
  (await execGit('git', [...GIT_USER, ...args], { cwd })).stdout.trim();

function worktreeOf(member: string): string {
  const found = readStateFile(home, runId).members.find((entry) => entry.name === member);
  if (found?.worktreePath === undefined) throw new Error(`${member} has no worktree`);
  return found.worktreePath;
}

async function commitIn(member: string, file: string, text: string): Promise<string> {
  const cwd = worktreeOf(member);
  await writeFile(path.join(cwd, file), text);
  await git(cwd, ['add', file]);
  await git(cwd, ['commit', '-q', '-m', `${member}: ${file}`]);
  return git(cwd, ['rev-parse', 'HEAD']);
}

/** A task the member does and commits; the user approves it. Returns its id. */
async function doneTask(member: string, subject: string, file: string, text: string) {
  const created = await team(['task', 'create', runId, subject]);
  expect(created.code, created.stdout + created.stderr).toBe(0);
  const id = (created.json().task as { id: string }).id;
  const env = asMember(member);
  for (const step of ['claim', 'start']) {
    const moved = await runCli(['task', step, id, '--json'], env);
    expect(moved.code, `${step}: ${moved.stdout}${moved.stderr}`).toBe(0);
  }
  await commitIn(member, file, text);
  for (const step of ['complete', 'review']) {
    const moved = await runCli(['task', step, id, '--json'], env);
    expect(moved.code, `${step}: ${moved.stdout}${moved.stderr}`).toBe(0);
  }
  const approved = await team(['task', 'approve', runId, id]);
  expect(approved.code, approved.stdout + approved.stderr).toBe(0);
  return id;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(250);
  }
}

beforeAll(async () => {
  ({ home, cleanup } = await createTempHome());
  repo = path.join(home, 'repo');
  await execGit('git', ['init', '-q', '-b', 'main', repo]);
  await writeFile(path.join(repo, 'README.md'), 'base\n');
  await git(repo, ['add', 'README.md']);
  await git(repo, ['commit', '-q', '-m', 'init']);
  await writeTestTeam(home, {
    id: 'pair',
    lead: 'lead',
    members: ['lead', 'w1', 'w2'],
    worktrees: ['w1', 'w2'],
  });
  const started = await team([
    'run',
    'start',
    'pair',
    '--repo',
    repo,
    '--agent-cmd',
    IDLE_AGENT,
    '--goal',
    'Ship the notes',
    '--criterion',
    'the notes file exists',
  ]);
  expect(started.code, started.stdout + started.stderr).toBe(0);
  runId = started.json().runId as string;
}, 120_000);

afterAll(async () => {
  if (runId !== undefined) await team(['run', 'stop', runId, '--force']);
  await cleanup();
}, 120_000);

describe('a run from start to report', () => {
  let notes: string;

  it('shows the goal given at start, its criterion without evidence', async () => {
    const shown = await team(['run', 'goal', runId]);
    expect(shown.code, shown.stdout + shown.stderr).toBe(0);
    expect(JSON.stringify(shown.json())).toContain('Ship the notes');
    expect(JSON.stringify(shown.json())).toContain('the notes file exists');
    const text = await runCli(['run', 'goal', runId, '--home', home]);
    expect(text.stdout).toContain('the notes file exists');
  });

  it('refuses --criterion without --goal at start, and starts nothing', async () => {
    const refused = await team(['run', 'start', 'pair', '--criterion', 'x', '--agent-cmd', 'true']);
    expect(refused.code).toBe(2);
    const listed = await team(['run', 'list']);
    expect((listed.json().runs as unknown[]).length).toBe(1);
  });

  it('merges approved work into the base branch; a worker may not merge', async () => {
    notes = await doneTask('w1', 'Write the notes', 'notes.md', 'notes\n');
    await doneTask('w2', 'Edit the readme', 'README.md', 'from w2\n');
    // The run_merge tool's roles refuse it, as they do over MCP.
    const denied = await runCli(['run', 'merge', runId, '--json'], asMember('w2'));
    expect(denied.code).toBe(5);
    expect(denied.json()).toMatchObject({ ok: false, error: { code: 'NOT_LEAD' } });

    const before = await git(repo, ['rev-parse', 'main']);
    const dry = await team(['run', 'merge', runId, '--dry-run']);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(await git(repo, ['rev-parse', 'main'])).toBe(before);

    // The lead may merge: its identity comes from its process's environment.
    const merged = await runCli(['run', 'merge', runId, '--json'], asMember('lead'));
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    const report = merged.json().report as { into: string; tasks: { outcome: string }[] };
    expect(report.tasks.map((task) => task.outcome)).toEqual(['merged', 'merged']);
    expect(await git(repo, ['show', 'main:notes.md'])).toBe('notes');
    expect(await git(repo, ['show', 'main:README.md'])).toBe('from w2');
  });

  it('reports a conflict with its files and moves no branch', async () => {
    await doneTask('w1', 'Rewrite the readme', 'README.md', 'from w1\n');
    const before = await git(repo, ['rev-parse', 'main']);
    const conflict = await team(['run', 'merge', runId]);
    expect(conflict.code).toBe(4);
    const error = conflict.json().error as { code: string; message: string };
    expect(error.code).toBe('MERGE_CONFLICT');
    expect(error.message).toContain('README.md');
    expect(await git(repo, ['rev-parse', 'main'])).toBe(before);
    expect(await git(repo, ['status', '--porcelain'])).toBe('');
  });

  it('keeps waiving to the user and takes evidence from the user', async () => {
    const waive = await runCli(
      ['run', 'criteria', 'waive', runId, '1', '--reason', 'no', '--json'],
      asMember('w1'),
    );
    expect(waive.json()).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    const missing = await team(['run', 'criteria', 'evidence', runId, '1']);
    expect(missing.code).toBe(2);
    const attached = await team(['run', 'criteria', 'evidence', runId, '1', '--task', notes]);
    expect(attached.code, attached.stdout + attached.stderr).toBe(0);
  });

  it('completes once every member approved its shutdown and the lead ended', async () => {
    const everyone = await runCli(['shutdown', 'request', runId, '*', '--json'], asMember('w1'));
    expect(everyone.json()).toMatchObject({ ok: false, error: { code: 'NOT_LEAD' } });
    const requested = await team(['shutdown', 'request', runId, '--reason', 'done']);
    expect(requested.code, requested.stdout + requested.stderr).toBe(0);
    const userAnswer = await team(['shutdown', 'approve', runId]);
    expect(userAnswer.json()).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    for (const member of ['w1', 'w2']) {
      const approved = await runCli(['shutdown', 'approve', '--json'], asMember(member));
      expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    }
    // The lead's process ends on its own (here: it is stopped from outside).
    process.kill(memberPid(home, runId, 'lead'), 'SIGTERM');
    const status = await waitFor('the run to complete', async () => {
      const state = readStateFile(home, runId);
      return state.status === 'completed' ? state.status : undefined;
    });
    expect(status).toBe('completed');
  });

  it('reports tasks, commits, the criterion with its evidence and the merge', async () => {
    const report = await team(['run', 'report', runId]);
    expect(report.code, report.stdout + report.stderr).toBe(0);
    const text = JSON.stringify(report.json());
    for (const expected of ['Write the notes', 'Rewrite the readme', 'the notes file exists'])
      expect(text).toContain(expected);
    const human = await runCli(['run', 'report', runId, '--home', home]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Write the notes');
    expect(human.stdout).toContain('completed');
  });
});
