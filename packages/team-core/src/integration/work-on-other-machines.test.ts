import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeamRuntime, type TeamRuntime } from '../runtime/create-team-runtime.js';
import {
  crewTeam,
  git,
  makeRepo,
  makeRuntimeHome,
  recordingHost,
} from '../runtime/test-support/recording-host.js';
import { readRunState, updateRunState } from '../state/index.js';
import { createFileStore } from '../storage/index.js';
import { caughtTeamkitError } from '../test-support/caught-error.js';

// A run whose member works on another machine: its worktree is of that machine's clone,
// so the commit the run records is not in the repository the run started from.
let home: string;
let cleanup: () => Promise<void>;
let repo: string;
let runtime: TeamRuntime;

beforeEach(async () => {
  ({ home, cleanup } = await makeRuntimeHome());
  repo = await makeRepo(home);
  runtime = await createTeamRuntime({
    store: createFileStore({ root: home }),
    home,
    host: recordingHost(),
  });
});
afterEach(async () => cleanup());

const head = async (cwd: string, ref = 'HEAD') =>
  (await git(cwd, ['rev-parse', ref])).stdout.trim();

describe('work committed on another machine', () => {
  it('records the base branch and commit for members left elsewhere, with no worktree here', async () => {
    const started = await runtime.startRun(crewTeam(1, {}, true), {
      repo,
      leadSessionId: 'lead-session',
      elsewhere: ['worker-1'],
    });
    const state = await readRunState(home, started.runId, {
      store: createFileStore({ root: home }),
    });
    // Before, a run whose every worktree member was elsewhere recorded neither: `team run
    // merge` called it "started on a detached HEAD", and the joining machine's worktree
    // started from whatever its clone had checked out.
    expect(state.baseBranch).toBe('main');
    const worker = state.members.find((member) => member.name === 'worker-1');
    expect(worker?.baseRef).toBe(await head(repo));
    expect(worker?.worktreePath).toBeUndefined();
    expect(worker?.branch).toBeUndefined();
  });

  it('refuses to merge work whose commit is not in this repository, naming the branch to fetch', async () => {
    const { runId } = await runtime.startRun(crewTeam(1, {}, true), {
      repo,
      leadSessionId: 'lead-session',
    });
    const branch = `teamkit/${runId.slice(0, 8)}/worker-1`;
    // The other machine: a clone, and the member's worktree of it on the member's branch.
    const clone = path.join(home, 'clone');
    const elsewhere = path.join(home, 'elsewhere-worktree');
    await git(home, ['clone', '-q', repo, clone]);
    await git(clone, ['worktree', 'add', '-q', '-b', branch, elsewhere]);
    await updateRunState(
      home,
      runId,
      (draft) => {
        const worker = draft.members.find((member) => member.name === 'worker-1');
        if (worker !== undefined) {
          worker.worktreePath = elsewhere;
          worker.machine = 'm-other-machine';
        }
        return draft;
      },
      { store: createFileStore({ root: home }) },
    );
    const lead = await runtime.lead(runId);
    const one = runtime.member(runId, 'worker-1');
    const task = await lead.createTask({ subject: 'Greet' });
    await one.claimTask(task.id);
    await one.startTask(task.id);
    await writeFile(path.join(elsewhere, 'greeting.txt'), 'hello\n');
    await git(elsewhere, ['add', 'greeting.txt']);
    await git(elsewhere, ['commit', '-q', '-m', 'Add greeting.txt']);
    const commit = await head(elsewhere);
    await one.completeTask(task.id);
    await one.submitForReview(task.id);
    await lead.approveTask(task.id);
    const mainBefore = await head(repo, 'main');

    const error = await caughtTeamkitError(lead.mergeWork());
    expect(error.code).toBe('WORK_NOT_IN_REPOSITORY');
    expect(error.message).toContain(`${commit.slice(0, 12)} on ${branch}`);
    expect(error.message).toContain('on machine m-other-machine');
    expect(error.message).toContain(`git push origin ${branch}`);
    expect(error.message).toContain(`git fetch origin ${branch}:${branch}`);
    expect(error.details).toMatchObject({
      missing: [{ id: task.id, member: 'worker-1', branch, commit, machine: 'm-other-machine' }],
    });
    expect(await head(repo, 'main')).toBe(mainBefore);
    expect(await caughtTeamkitError(lead.mergeWork({ dryRun: true }))).toMatchObject({
      code: 'WORK_NOT_IN_REPOSITORY',
    });

    // Fetched here, the same merge goes through.
    await git(repo, ['fetch', '-q', clone, branch]);
    const merged = await lead.mergeWork();
    expect(merged.tasks).toMatchObject([{ id: task.id, commit, outcome: 'merged' }]);
    expect((await git(repo, ['show', 'main:greeting.txt'])).stdout).toBe('hello\n');
  });
});
