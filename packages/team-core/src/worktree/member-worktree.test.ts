import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunState, transitionRun } from '../state/run-state-store.js';
import { makeSpec } from '../state/test-support/temp-home.js';
import { createFileStore } from '../storage/index.js';
import { caughtTeamkitError } from '../test-support/caught-error.js';
import { createGitRunner } from './git-runner.js';
import {
  createMemberWorktree,
  listGitWorktrees,
  memberBranchName,
  removeMemberWorktree,
} from './member-worktree.js';
import { findOrphanWorktrees, pruneOrphans } from './orphan-worktrees.js';

const cleanEnv = { ...process.env };
for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete cleanEnv[name];
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: cleanEnv, encoding: 'utf8' }).trim();
}
function commit(cwd: string, file: string, text: string, message: string): string {
  execFileSync(
    'node',
    ['-e', `require('fs').writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(text)})`],
    { cwd },
  );
  git(cwd, 'add', file);
  git(cwd, 'commit', '-q', '-m', message);
  return git(cwd, 'rev-parse', 'HEAD');
}

describe('member worktrees on real git', () => {
  let root: string;
  let repo: string;
  let home: string;
  let runId: string;
  const runner = createGitRunner();

  beforeAll(async () => {
    root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamkit-wt-')));
    repo = path.join(root, 'repo');
    home = path.join(root, 'home');
    await mkdir(repo);
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.name', 'Teamkit Test');
    git(repo, 'config', 'user.email', 'test@teamkit.invalid');
    git(repo, 'config', 'commit.gpgsign', 'false');
    commit(repo, 'README.md', 'hello\n', 'initial');
    const state = await createRunState(
      home,
      {
        spec: makeSpec(['writer', 'reviewer']),
        teamSource: { scope: 'inline' },
        hostId: 'test',
        repoRoot: repo,
      },
      { store: createFileStore({ root: home }) },
    );
    runId = state.runId;
    await transitionRun(home, runId, 'active', { store: createFileStore({ root: home }) });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates one worktree and branch per member from the base ref', async () => {
    const made = [];
    for (const member of ['lead', 'writer', 'reviewer']) {
      made.push(
        await createMemberWorktree({
          home,
          repoRoot: repo,
          runId,
          member,
          baseRef: 'main',
          git: runner,
        }),
      );
    }
    const base = git(repo, 'rev-parse', 'main');
    for (const [index, member] of ['lead', 'writer', 'reviewer'].entries()) {
      const wt = made[index];
      expect(wt?.path).toBe(path.join(home, 'worktrees', runId, member));
      expect(wt?.branch).toBe(`teamkit/${runId.slice(0, 8)}/${member}`);
      expect(wt?.baseCommit).toBe(base);
      expect(git(wt?.path ?? '', 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(wt?.branch);
    }
    const listed = await listGitWorktrees(runner, repo);
    expect(listed[0]?.branch).toBe('main');
    expect(listed.map((entry) => entry.branch).sort()).toEqual(
      ['main', ...['lead', 'writer', 'reviewer'].map((m) => memberBranchName(runId, m))].sort(),
    );
  });

  it('reports a missing git as GIT_UNAVAILABLE and a missing folder as NOT_A_GIT_REPO', async () => {
    const missing = createGitRunner({ git: 'git-not-installed-teamkit' });
    await expect(missing.run(['--version'], { cwd: root })).rejects.toMatchObject({
      code: 'GIT_UNAVAILABLE',
    });
    await expect(runner.run(['status'], { cwd: path.join(root, 'nope') })).rejects.toMatchObject({
      code: 'NOT_A_GIT_REPO',
    });
  });

  it('refuses a path or branch collision with a typed error, never using the main checkout', async () => {
    const again = await caughtTeamkitError(
      createMemberWorktree({ home, repoRoot: repo, runId, member: 'writer', git: runner }),
    );
    expect(again.code).toBe('WORKTREE_COLLISION');
    expect(again.details?.reason).toBe('path-exists');

    const other = '0f0f0f0f-0000-4000-8000-000000000000';
    git(repo, 'branch', memberBranchName(other, 'writer'));
    const branch = await caughtTeamkitError(
      createMemberWorktree({ home, repoRoot: repo, runId: other, member: 'writer', git: runner }),
    );
    expect(branch.code).toBe('WORKTREE_COLLISION');
    expect(branch.details?.reason).toBe('branch-exists');
    await expect(stat(path.join(home, 'worktrees', other, 'writer'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    git(repo, 'branch', '-D', memberBranchName(other, 'writer'));

    await expect(
      createMemberWorktree({ home, repoRoot: repo, runId, member: '../escape', git: runner }),
    ).rejects.toMatchObject({ code: 'PATH_TRAVERSAL' });
    await expect(
      createMemberWorktree({
        home,
        repoRoot: repo,
        runId,
        member: 'x',
        baseRef: '--upload-pack=evil',
        git: runner,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(
      createMemberWorktree({ home, repoRoot: root, runId, member: 'x', git: runner }),
    ).rejects.toMatchObject({ code: 'NOT_A_GIT_REPO' });
    expect(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
  });

  it('refuses removal while dirty or unmerged, naming the work, and succeeds once merged', async () => {
    const wt = path.join(home, 'worktrees', runId, 'writer');
    const sha = commit(wt, 'feature.txt', 'feature\n', 'add the feature');
    await writeFile(path.join(wt, 'scratch.txt'), 'not committed');

    const dirty = await caughtTeamkitError(
      removeMemberWorktree({
        home,
        repoRoot: repo,
        runId,
        member: 'writer',
        baseRef: 'main',
        git: runner,
      }),
    );
    expect(dirty.code).toBe('WORKTREE_HAS_UNSAVED_WORK');
    expect(dirty.details?.files).toEqual(['?? scratch.txt']);
    expect(dirty.details?.commits).toEqual([{ sha, subject: 'add the feature' }]);
    expect(dirty.message).toContain('add the feature');
    expect(dirty.message).toContain('scratch.txt');

    await rm(path.join(wt, 'scratch.txt'));
    const unmerged = await caughtTeamkitError(
      removeMemberWorktree({
        home,
        repoRoot: repo,
        runId,
        member: 'writer',
        baseRef: 'main',
        git: runner,
      }),
    );
    expect(unmerged.details?.files).toEqual([]);
    expect(unmerged.message).toContain(sha.slice(0, 10));
    expect((await stat(wt)).isDirectory()).toBe(true);

    git(repo, 'merge', '-q', '--ff-only', memberBranchName(runId, 'writer'));
    const report = await removeMemberWorktree({
      home,
      repoRoot: repo,
      runId,
      member: 'writer',
      baseRef: 'main',
      git: runner,
    });
    expect(report).toMatchObject({
      removed: true,
      branchDeleted: false,
      discarded: { files: [], commits: [] },
    });
    await expect(stat(wt)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(git(repo, 'branch', '--list', memberBranchName(runId, 'writer'))).toContain('writer');
  });

  it('with force removes a dirty tree and says what it discarded', async () => {
    const wt = path.join(home, 'worktrees', runId, 'reviewer');
    const sha = commit(wt, 'notes.txt', 'notes\n', 'review notes');
    await writeFile(path.join(wt, 'draft.txt'), 'draft');
    const report = await removeMemberWorktree({
      home,
      repoRoot: repo,
      runId,
      member: 'reviewer',
      baseRef: 'main',
      force: true,
      deleteBranch: true,
      git: runner,
    });
    expect(report.removed).toBe(true);
    expect(report.branchDeleted).toBe(true);
    expect(report.discarded).toEqual({
      files: ['?? draft.txt'],
      commits: [{ sha, subject: 'review notes' }],
    });
    expect(git(repo, 'branch', '--list', memberBranchName(runId, 'reviewer'))).toBe('');
  });

  it('finds and prunes an orphan from a deleted run, and keeps an active run and unsaved work', async () => {
    const gone = await createRunState(
      home,
      {
        spec: makeSpec(['builder', 'keeper']),
        teamSource: { scope: 'inline' },
        hostId: 'test',
      },
      { store: createFileStore({ root: home }) },
    );
    await createMemberWorktree({
      home,
      repoRoot: repo,
      runId: gone.runId,
      member: 'builder',
      git: runner,
    });
    const keeper = await createMemberWorktree({
      home,
      repoRoot: repo,
      runId: gone.runId,
      member: 'keeper',
      git: runner,
    });
    const keptSha = commit(keeper.path, 'keep.txt', 'keep\n', 'work to keep');
    await transitionRun(home, gone.runId, 'active', { store: createFileStore({ root: home }) });
    await transitionRun(home, gone.runId, 'deleting', { store: createFileStore({ root: home }) });
    await transitionRun(home, gone.runId, 'deleted', { store: createFileStore({ root: home }) });

    const orphans = await findOrphanWorktrees({
      store: createFileStore({ root: home }),
      home,
      repoRoots: [repo],
      git: runner,
    });
    expect(orphans.map((o) => [o.member, o.reason, o.runStatus, o.repoRoot])).toEqual([
      ['builder', 'run-finished', 'deleted', repo],
      ['keeper', 'run-finished', 'deleted', repo],
    ]);

    const report = await pruneOrphans({
      store: createFileStore({ root: home }),
      home,
      repoRoots: [repo],
      git: runner,
      deleteBranches: true,
    });
    expect(report.removed.map((r) => [path.basename(r.path), r.branchDeleted])).toEqual([
      ['builder', true],
    ]);
    expect(report.refused).toHaveLength(1);
    expect(report.refused[0]?.unsaved.commits).toEqual([{ sha: keptSha, subject: 'work to keep' }]);
    expect((await stat(keeper.path)).isDirectory()).toBe(true);
    await expect(stat(path.join(home, 'worktrees', gone.runId, 'builder'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    // The active run's worktree was never an orphan.
    expect((await stat(path.join(home, 'worktrees', runId, 'lead'))).isDirectory()).toBe(true);
    expect(
      (
        await findOrphanWorktrees({
          store: createFileStore({ root: home }),
          home,
          repoRoots: [repo],
          git: runner,
        })
      ).map((o) => o.member),
    ).toEqual(['keeper']);
  });

  it('finds the worktree of a run whose state is gone and prunes it once clean', async () => {
    const lost = '1a2b3c4d-0000-4000-8000-000000000000';
    const made = await createMemberWorktree({
      home,
      repoRoot: repo,
      runId: lost,
      member: 'ghost',
      git: runner,
    });
    const [orphan] = (
      await findOrphanWorktrees({ store: createFileStore({ root: home }), home, git: runner })
    ).filter((o) => o.runId === lost);
    expect(orphan).toMatchObject({ reason: 'run-missing', repoRoot: repo, folderExists: true });
    const report = await pruneOrphans({
      store: createFileStore({ root: home }),
      home,
      git: runner,
    });
    expect(report.removed.map((r) => r.path)).toContain(made.path);
    await expect(stat(path.dirname(made.path))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
