import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectRunReport } from '../report/collect-run-report.js';
import { createTeamRuntime, type TeamRuntime } from '../runtime/create-team-runtime.js';
import type { MemberClient } from '../runtime/member-client.js';
import {
  crewTeam,
  git,
  makeRepo,
  makeRuntimeHome,
  recordingHost,
} from '../runtime/test-support/recording-host.js';
import { readRunState } from '../state/index.js';
import { createFileStore } from '../storage/index.js';
import { caughtTeamkitError } from '../test-support/caught-error.js';
import { createGitRunner } from '../worktree/git-runner.js';
import { mergeRunWork } from './merge-run-work.js';
import { integrationBranchName } from './merge-target.js';

const run = promisify(execFile);

let home: string;
let cleanup: () => Promise<void>;
let repo: string;
let runtime: TeamRuntime;
let runId: string;
let lead: MemberClient;
let one: MemberClient;
let two: MemberClient;
const worktrees: Record<string, string> = {};

beforeEach(async () => {
  ({ home, cleanup } = await makeRuntimeHome());
  repo = await makeRepo(home);
  runtime = await createTeamRuntime({
    store: createFileStore({ root: home }),
    home,
    host: recordingHost(),
  });
  const started = await runtime.startRun(crewTeam(2, {}, true), {
    repo,
    leadSessionId: 'lead-session',
  });
  runId = started.runId;
  for (const member of started.state.members)
    if (member.worktreePath !== undefined) worktrees[member.name] = member.worktreePath;
  lead = await runtime.lead(runId);
  one = runtime.member(runId, 'worker-1');
  two = runtime.member(runId, 'worker-2');
});
afterEach(async () => cleanup());

async function head(cwd: string, ref = 'HEAD'): Promise<string> {
  return (await git(cwd, ['rev-parse', ref])).stdout.trim();
}

async function commitFile(member: string, file: string, text: string): Promise<string> {
  const cwd = worktrees[member] as string;
  await writeFile(path.join(cwd, file), text);
  await git(cwd, ['add', file]);
  await git(cwd, ['commit', '-q', '-m', `${member}: ${file}`]);
  return head(cwd);
}

/** Claims, starts, commits `file`, completes, offers for review; the lead approves. */
async function doTask(client: MemberClient, id: string, file: string, text: string) {
  const claimed = await client.claimTask(id);
  if (claimed.status === 'blocked') return claimed;
  await client.startTask(id);
  const commit = await commitFile(client.member, file, text);
  await client.completeTask(id);
  await client.submitForReview(id);
  await lead.approveTask(id);
  return { ...(await lead.getTask(id)), committed: commit };
}

const exists = (target: string) =>
  stat(target).then(
    () => true,
    () => false,
  );

describe('task work, blockers and merging on real git', () => {
  it('records work, brings a worktree up to date with its blockers, merges in dependency order, and reports it', async () => {
    expect(
      (await readRunState(home, runId, { store: createFileStore({ root: home }) })).baseBranch,
    ).toBe('main');
    const design = await lead.createTask({ subject: 'Design' });
    const parser = await lead.createTask({ subject: 'Parser' });
    const cli = await lead.createTask({ subject: 'CLI', blockedBy: [design.id, parser.id] });

    const first = await doTask(one, design.id, 'design.md', '# design\n');
    expect(first.work).toMatchObject({
      member: 'worker-1',
      branch: `teamkit/${runId.slice(0, 8)}/worker-1`,
      commit: 'committed' in first ? first.committed : '',
      uncommittedFiles: 0,
    });
    const second = await doTask(two, parser.id, 'parser.ts', 'export {}\n');
    const parserCommit = 'committed' in second ? second.committed : '';

    // worker-1 starts the CLI task from both blockers' work: worker-2's commit is merged in.
    await one.claimTask(cli.id);
    expect(await readFile(path.join(worktrees['worker-1'] as string, 'parser.ts'), 'utf8')).toBe(
      'export {}\n',
    );
    await run('git', ['merge-base', '--is-ancestor', parserCommit, 'HEAD'], {
      cwd: worktrees['worker-1'],
    });
    await one.startTask(cli.id);
    await commitFile('worker-1', 'cli.ts', 'export {}\n');
    await one.completeTask(cli.id);
    await one.submitForReview(cli.id);
    await lead.approveTask(cli.id);

    const mainBefore = await head(repo, 'main');
    const dry = await lead.mergeWork({ dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, changed: false, into: 'main', from: mainBefore });
    expect(dry.tasks.map((task) => task.id)).toEqual([design.id, parser.id, cli.id]);
    expect(await head(repo, 'main')).toBe(mainBefore);

    const merged = await lead.mergeWork();
    expect(merged).toMatchObject({ changed: true, into: 'main', checkout: repo });
    expect(merged.tasks.map((task) => [task.id, task.outcome])).toEqual([
      [design.id, 'merged'],
      [parser.id, 'merged'],
      [cli.id, 'merged'],
    ]);
    // The user's own checkout of main moved forward with it, and is clean.
    expect(await head(repo)).toBe(merged.to);
    for (const file of ['design.md', 'parser.ts', 'cli.ts'])
      expect(await exists(path.join(repo, file)), file).toBe(true);
    expect((await git(repo, ['status', '--porcelain'])).stdout).toBe('');
    const subjects = (await git(repo, ['log', '--format=%s', `${mainBefore}..main`])).stdout;
    expect(subjects).toContain(`Merge task ${cli.id}: CLI`);

    const again = await lead.mergeWork();
    expect(again.changed).toBe(false);
    expect(again.tasks.every((task) => task.outcome === 'already-merged')).toBe(true);

    const report = await collectRunReport({ store: createFileStore({ root: home }), home, runId });
    expect(report.tasks.map((task) => [task.id, task.status, task.mergedInto])).toEqual([
      [design.id, 'approved', ['main']],
      [parser.id, 'approved', ['main']],
      [cli.id, 'approved', ['main']],
    ]);
    expect(report.merges).toHaveLength(1);
    // worker-1: design, worker-2's parser brought in with its merge commit, cli.
    expect(report.branches.map((branch) => [branch.member, branch.count])).toEqual([
      ['worker-1', 4],
      ['worker-2', 1],
    ]);
    expect(report.worktrees.map((worktree) => worktree.member)).toEqual(['worker-1', 'worker-2']);
    expect(
      report.members.find((member) => member.name === 'worker-1')?.messagesSent,
    ).toBeGreaterThanOrEqual(0);
  });

  it('aborts a conflicting merge and leaves every branch and checkout as it was', async () => {
    const a = await lead.createTask({ subject: 'A' });
    const b = await lead.createTask({ subject: 'B' });
    await doTask(one, a.id, 'same.txt', 'one\n');
    const secondWork = await doTask(two, b.id, 'same.txt', 'two\n');
    const mainBefore = await head(repo, 'main');
    const worktreesBefore = (await git(repo, ['worktree', 'list', '--porcelain'])).stdout;

    const error = await caughtTeamkitError(lead.mergeWork());
    expect(error.code).toBe('MERGE_CONFLICT');
    expect(error.details).toMatchObject({
      into: 'main',
      taskId: b.id,
      commit: 'committed' in secondWork ? secondWork.committed : '',
      files: ['same.txt'],
      mergedBefore: [a.id],
    });
    expect(await head(repo, 'main')).toBe(mainBefore);
    expect(await head(repo)).toBe(mainBefore);
    expect((await git(repo, ['status', '--porcelain'])).stdout).toBe('');
    expect((await git(repo, ['worktree', 'list', '--porcelain'])).stdout).toBe(worktreesBefore);
    expect(
      await collectRunReport({ store: createFileStore({ root: home }), home, runId }).then(
        (report) => report.merges,
      ),
    ).toEqual([]);
  });

  it('blocks a task whose blocker’s work conflicts in the owner’s worktree, leaving it clean', async () => {
    const base = await lead.createTask({ subject: 'Base' });
    const next = await lead.createTask({ subject: 'Next', blockedBy: [base.id] });
    await commitFile('worker-2', 'shared.txt', 'worker-2 version\n');
    const before = await head(worktrees['worker-2'] as string);
    await doTask(one, base.id, 'shared.txt', 'worker-1 version\n');

    const blocked = await two.claimTask(next.id);
    expect(blocked.status).toBe('blocked');
    expect(blocked.owner).toBe('worker-2');
    expect(blocked.blockedReason).toContain('shared.txt');
    expect(blocked.blockedReason).toContain(`task ${base.id}`);
    expect(await head(worktrees['worker-2'] as string)).toBe(before);
    expect((await git(worktrees['worker-2'] as string, ['status', '--porcelain'])).stdout).toBe('');
    const told = await lead.inbox();
    expect(told.map((message) => message.summary)).toContain(
      `task ${next.id} blocked: merge conflict`,
    );
  });

  it('puts the work on the integration branch when the base checkout has uncommitted changes', async () => {
    const a = await lead.createTask({ subject: 'A' });
    await doTask(one, a.id, 'a.txt', 'a\n');
    await writeFile(path.join(repo, 'scratch.txt'), 'the user is editing\n');
    const mainBefore = await head(repo, 'main');

    const refused = await caughtTeamkitError(lead.mergeWork({ into: 'main' }));
    expect(refused.code).toBe('WORKTREE_HAS_UNSAVED_WORK');
    const merged = await lead.mergeWork();
    expect(merged.into).toBe(integrationBranchName(runId));
    expect(merged.fellBack?.from).toBe('main');
    expect(merged.fellBack?.reason).toContain('scratch.txt');
    expect(await head(repo, 'main')).toBe(mainBefore);
    expect(await readFile(path.join(repo, 'scratch.txt'), 'utf8')).toBe('the user is editing\n');
    await run('git', ['merge-base', '--is-ancestor', mainBefore, merged.to], { cwd: repo });
    expect((await git(repo, ['show', `${merged.to}:a.txt`])).stdout).toBe('a\n');

    // Into a branch that does not exist yet: it is made from the base.
    const named = await mergeRunWork({
      store: createFileStore({ root: home }),
      home,
      runId,
      by: 'user',
      into: 'release/1',
    });
    expect(named).toMatchObject({ into: 'release/1', changed: true });
    expect(named.from).toBeUndefined();
    expect(
      await caughtTeamkitError(
        mergeRunWork({
          store: createFileStore({ root: home }),
          home,
          runId,
          by: 'user',
          into: '-x',
        }),
      ),
    ).toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('merges with a fallback identity when git has none configured', async () => {
    const a = await lead.createTask({ subject: 'A' });
    await doTask(one, a.id, 'a.txt', 'a\n');
    await git(repo, ['config', 'user.useConfigOnly', 'true']);
    const bare = createGitRunner({
      env: { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', EMAIL: '' },
    });
    const merged = await mergeRunWork({
      store: createFileStore({ root: home }),
      home,
      runId,
      by: 'user',
      git: bare,
    });
    expect(merged.changed).toBe(true);
    expect((await git(repo, ['log', '-1', '--format=%cn', 'main'])).stdout.trim()).toBe('Teamkit');
  });

  it('refuses members, and removes member branches nothing was committed on at stop', async () => {
    expect(await caughtTeamkitError(one.mergeWork())).toMatchObject({ code: 'NOT_LEAD' });
    const a = await lead.createTask({ subject: 'A' });
    await doTask(one, a.id, 'a.txt', 'a\n');
    await lead.mergeWork();
    const report = await runtime.stopRun(runId);
    expect(report.removedBranches).toEqual([`teamkit/${runId.slice(0, 8)}/worker-2`]);
    const branches = (await git(repo, ['branch', '--format=%(refname:short)'])).stdout;
    expect(branches).toContain(`teamkit/${runId.slice(0, 8)}/worker-1`);
    expect(branches).not.toContain(`teamkit/${runId.slice(0, 8)}/worker-2`);
  });
});
