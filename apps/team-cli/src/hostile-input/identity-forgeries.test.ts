import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberEnvironment } from '../test-support/member-environment.js';
import { readStateFile } from '../test-support/member-environment.js';
import type { CliResult } from '../test-support/run-cli.js';
import { createHostileWorld, HAS_PROC, type HostileWorld } from './test-support/hostile-run.js';
import { runInsideMember } from './test-support/member-shell.js';

// Every forgery of issue 19 item 5 (and "a worker can stop the whole run"), through the
// built `team` command against a real run whose members are real processes.
if (!HAS_PROC) console.warn('skipping identity forgery tests: this system has no /proc');

let world: HostileWorld;
let runId: string;
let w1: MemberEnvironment;
let w2: MemberEnvironment;
let lead: MemberEnvironment;
let reviewed: string;

const refused = (
  result: CliResult,
  code: 'IDENTITY_MISMATCH' | 'PERMISSION_DENIED' | 'NOT_LEAD',
) => {
  expect(result.code, result.stdout + result.stderr).toBe(5);
  expect(result.json()).toMatchObject({ ok: false, error: { code } });
};
const taskOf = async (id: string) =>
  (await world.team(['task', 'get', runId, id, '--json'])).json().task as {
    status: string;
    owner?: string;
  };
const inside = (member: string, args: string[], options = {}) =>
  runInsideMember(world.shells, member, args, options);

beforeAll(async () => {
  if (!HAS_PROC) return;
  world = await createHostileWorld();
  runId = await world.startRun();
  w1 = world.env(runId, 'w1');
  w2 = world.env(runId, 'w2');
  lead = world.env(runId, 'lead');
  const created = await world.team(['task', 'create', runId, 'Reviewed work', '--json']);
  reviewed = (created.json().task as { id: string }).id;
  for (const step of ['claim', 'start', 'complete', 'review']) {
    const moved = await world.team(['task', step, reviewed, '--json'], w1);
    expect(moved.code, moved.stdout).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await world?.cleanup();
}, 120_000);

describe.skipIf(!HAS_PROC)('a member cannot act as the lead or as another member', () => {
  it('refuses a member that names itself the lead, and its own approval as itself', async () => {
    refused(
      await world.team(['task', 'approve', reviewed, '--json'], { ...w1, TEAMKIT_MEMBER: 'lead' }),
      'IDENTITY_MISMATCH',
    );
    refused(await world.team(['task', 'approve', reviewed, '--json'], w1), 'NOT_LEAD');
    expect((await taskOf(reviewed)).status).toBe('in_review');
  });

  it('refuses a member without its secret, or with another member’s', async () => {
    refused(
      await world.team(['task', 'list', '--json'], { ...w1, TEAMKIT_TOKEN: '' }),
      'IDENTITY_MISMATCH',
    );
    refused(
      await world.team(['task', 'list', '--json'], { ...w1, TEAMKIT_TOKEN: w2.TEAMKIT_TOKEN }),
      'IDENTITY_MISMATCH',
    );
    refused(
      await world.team(['task', 'list', '--json'], { ...w1, TEAMKIT_MEMBER: '', TEAMKIT_RUN: '' }),
      'IDENTITY_MISMATCH',
    );
  });

  it('keeps a member that removes its TEAMKIT_* variables as that member, never the user', async () => {
    const approve = await inside('w1', [
      'task',
      'approve',
      runId,
      reviewed,
      '--home',
      world.home,
      '--json',
    ]);
    refused(approve, 'NOT_LEAD');
    expect((await taskOf(reviewed)).status).toBe('in_review');
    const inbox = await inside('w1', ['inbox', runId, '--home', world.home, '--json']);
    expect(inbox.json()).toMatchObject({ ok: true, member: 'w1' });
    // Without its home it cannot even reach the run: another home is refused too.
    refused(await inside('w1', ['inbox', '--json']), 'IDENTITY_MISMATCH');
    // Setting another member's name without a secret is no better.
    refused(
      await inside('w1', ['task', 'approve', reviewed, '--json'], {
        set: { TEAMKIT_HOME: world.home, TEAMKIT_RUN: runId, TEAMKIT_MEMBER: 'lead' },
      }),
      'IDENTITY_MISMATCH',
    );
    // Even another member's real secret is refused under w1's process.
    refused(
      await inside('w1', ['inbox', '--json'], {
        set: { ...w2 },
      }),
      'IDENTITY_MISMATCH',
    );
  }, 60_000);

  it('lets no member read another member’s inbox', async () => {
    const sent = await world.team(['send', runId, '--to', 'w2', 'for w2 only', '--json']);
    expect(sent.code).toBe(0);
    refused(
      await world.team(['inbox', '--json'], { ...w1, TEAMKIT_MEMBER: 'w2' }),
      'IDENTITY_MISMATCH',
    );
    const stripped = await inside('w1', ['inbox', runId, '--home', world.home, '--json']);
    expect(JSON.stringify(stripped.json().messages)).not.toContain('for w2 only');
    const own = await world.team(['inbox', '--json'], w2);
    expect(JSON.stringify(own.json().messages)).toContain('for w2 only');
  }, 60_000);

  it('lets no member claim a task for another member', async () => {
    const created = await world.team(['task', 'create', runId, 'Unclaimed', '--json']);
    const id = (created.json().task as { id: string }).id;
    refused(
      await world.team(['task', 'claim', id, '--json'], { ...w1, TEAMKIT_MEMBER: 'w2' }),
      'IDENTITY_MISMATCH',
    );
    const task = await taskOf(id);
    expect(task.status).toBe('pending');
    expect(task.owner).toBeUndefined();
  });

  it('refuses another run in every command inside a member, listing included', async () => {
    const other = '00000000-0000-4000-8000-000000000000';
    for (const args of [
      ['task', 'list', other],
      ['inbox', other],
      ['board', other],
      ['run', 'status', other],
      ['dashboard', other, '--once'],
      ['task', 'get', other, '1'],
      ['send', other, '--to', 'lead', 'hello'],
    ]) {
      refused(await world.team([...args, '--json'], w1), 'IDENTITY_MISMATCH');
    }
    const list = await world.team(['run', 'list', '--json'], w1);
    expect((list.json().runs as { runId: string }[]).map((run) => run.runId)).toEqual([runId]);
  }, 60_000);
});

describe.skipIf(!HAS_PROC)(
  'run-wide and destructive operations belong to the user and the lead',
  () => {
    it('refuses a worker that stops the whole run, however it presents itself', async () => {
      const notes = path.join(
        readStateFile(world.home, runId).members.find((m) => m.name === 'w2')?.worktreePath ?? '',
        'notes.txt',
      );
      await writeFile(notes, 'uncommitted work of w2\n');
      refused(
        await world.team(['run', 'stop', runId, '--force', '--json'], w1),
        'PERMISSION_DENIED',
      );
      refused(
        await inside('w1', ['run', 'stop', runId, '--force', '--home', world.home, '--json']),
        'PERMISSION_DENIED',
      );
      refused(
        await world.team(['run', 'stop', runId, '--force', '--json'], {
          TEAMKIT_TOKEN: w1.TEAMKIT_TOKEN,
        }),
        'IDENTITY_MISMATCH',
      );
      expect(readStateFile(world.home, runId).status).toBe('active');
      expect(existsSync(notes)).toBe(true);
    }, 60_000);

    it('refuses every other run-wide command to a worker', async () => {
      for (const args of [
        ['run', 'resume', runId],
        ['run', 'supervise', runId],
        ['run', 'sweep'],
        ['run', 'start', 'crew'],
        ['worktree', 'prune', '--force'],
        ['worktree', 'list'],
        ['tmux', 'sweep'],
        ['init'],
        ['demo'],
      ]) {
        const result = await world.team([...args, '--json'], w1);
        expect(result.code, `${args.join(' ')}: ${result.stdout}`).toBe(5);
        expect(result.json()).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
      }
      expect(readStateFile(world.home, runId).status).toBe('active');
    }, 120_000);

    it('keeps another run’s uncommitted work from a member’s worktree prune --force', async () => {
      const other = await world.startRun('sleep 600');
      const worktree =
        readStateFile(world.home, other).members.find((m) => m.name === 'w1')?.worktreePath ?? '';
      const work = path.join(worktree, 'draft.txt');
      await writeFile(work, 'uncommitted work of the other run\n');
      const stopped = await world.team(['run', 'stop', other, '--json']);
      expect(stopped.json()).toMatchObject({ ok: true, report: { status: 'deleted' } });
      refused(
        await world.team(['worktree', 'prune', '--force', '--json'], w1),
        'PERMISSION_DENIED',
      );
      refused(
        await inside('w1', ['worktree', 'prune', '--force', '--home', world.home, '--json']),
        'PERMISSION_DENIED',
      );
      expect(existsSync(work)).toBe(true);
      const listed = await world.team(['worktree', 'list', '--json']);
      expect(JSON.stringify(listed.json().orphans)).toContain(worktree);
    }, 120_000);

    it('lets the lead stop its own run, even from inside its own process, but not another', async () => {
      refused(
        await world.team(['run', 'stop', '00000000-0000-4000-8000-000000000000', '--json'], lead),
        'IDENTITY_MISMATCH',
      );
      // The stop signals the lead's own process group, the command's own process included:
      // it must still finish the stop rather than end itself half-way.
      await inside('lead', ['run', 'stop', runId, '--json'], {
        keep: ['TEAMKIT_HOME', 'TEAMKIT_RUN', 'TEAMKIT_MEMBER', 'TEAMKIT_TOKEN'],
      }).catch(() => undefined);
      const deadline = Date.now() + 30_000;
      while (readStateFile(world.home, runId).status !== 'deleted' && Date.now() < deadline) {
        await delay(100);
      }
      expect(readStateFile(world.home, runId).status).toBe('deleted');
    }, 60_000);
  },
);
