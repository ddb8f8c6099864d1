import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { acquireLock, runPaths } from '@teamkit/team-core/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempHome, runCli } from '../../test-support/run-cli.js';

const git = promisify(execFile);
// Members that do nothing, so only the commands under test act.
const IDLE_AGENT = 'sleep 600';

let home: string;
let cleanup: () => Promise<void>;
const started: string[] = [];
beforeEach(async () => {
  ({ home, cleanup } = await createTempHome());
  await settings({});
});
afterEach(async () => {
  for (const runId of started.splice(0))
    await runCli(['run', 'stop', runId, '--force', '--home', home, '--json']);
  await cleanup();
});

const team = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--home', home, '--json'], env);

const LISTED = [{ id: 'coding-team' }, { id: 'solo' }, { id: 'duo' }];

async function settings(values: Record<string, unknown>, teams: unknown[] = LISTED) {
  await writeFile(
    path.join(home, 'config.json'),
    JSON.stringify({ version: 1, teams, settings: values }),
  );
}

async function start(teamId: string, extra: string[] = [], env: Record<string, string> = {}) {
  const result = await team(['run', 'start', teamId, '--agent-cmd', IDLE_AGENT, ...extra], env);
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const runId = result.json().runId as string;
  started.push(runId);
  return { runId, json: result.json() };
}

async function repo(): Promise<string> {
  const folder = path.join(home, 'repo');
  await git('git', ['init', '-q', '-b', 'main', folder]);
  await git('git', [
    '-C',
    folder,
    '-c',
    'user.name=teamkit-test',
    '-c',
    'user.email=test@teamkit.invalid',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'init',
  ]);
  return folder;
}

const exists = (target: string) =>
  stat(target).then(
    () => true,
    () => false,
  );

describe('team run start and stop', () => {
  it('starts a built-in team the config does not list (duo)', async () => {
    await settings({}, [{ id: 'coding-team' }]);
    const { json } = await start('duo');
    expect(json).toMatchObject({ ok: true, team: 'duo' });
    expect((json.spawned as string[]).sort()).toEqual(['implementer', 'reviewer']);
  });

  it('stop --force on a stopped run removes the dirty worktree the plain stop kept', async () => {
    const { runId } = await start('duo', ['--repo', await repo()]);
    const worktree = runPaths(home, runId).worktree('implementer');
    await writeFile(path.join(worktree, 'draft.txt'), 'not committed\n');
    const plain = await team(['run', 'stop', runId]);
    expect(plain.json()).toMatchObject({
      ok: true,
      report: { status: 'deleted', keptWorktrees: [{ member: 'implementer', path: worktree }] },
    });
    expect(await exists(worktree)).toBe(true);
    const forced = await team(['run', 'stop', runId, '--force']);
    expect(forced.json()).toMatchObject({
      ok: true,
      report: { status: 'deleted', removedWorktrees: [worktree], keptWorktrees: [] },
    });
    expect(await exists(worktree)).toBe(false);
  });

  it('keeps worktrees when worktree.cleanup is keep (setting: worktree.cleanup)', async () => {
    await settings({ 'worktree.cleanup': 'keep' });
    const { runId } = await start('duo', ['--repo', await repo()]);
    const worktree = runPaths(home, runId).worktree('implementer');
    const stopped = await team(['run', 'stop', runId]);
    expect(stopped.json()).toMatchObject({
      report: { removedWorktrees: [], keptWorktrees: [{ path: worktree }] },
    });
    expect(await exists(worktree)).toBe(true);
  });

  it('runs members in the background inside tmux when tmux.enabled is off (setting: tmux.enabled)', async () => {
    await settings({ 'tmux.enabled': 'off' });
    const tmuxFolder = await mkdtemp(path.join(os.tmpdir(), 'teamkit-no-tmux-'));
    try {
      // A tmux that does not exist: any attempt to use it would fail the start.
      const insideTmux = {
        TMUX: path.join(tmuxFolder, 'missing-socket,1,0'),
        TMUX_PANE: '%0',
        TMUX_TMPDIR: tmuxFolder,
      };
      const { json } = await start('solo', [], insideTmux);
      expect(json).toMatchObject({ ok: true, mode: 'background', spawned: ['implementer'] });
    } finally {
      await rm(tmuxFolder, { recursive: true, force: true });
    }
  });

  it('sweeps a failed run at once when runs.failedRetentionHours is 0 (setting: runs.failedRetentionHours)', async () => {
    const failed = await team(['run', 'start', 'solo', '--agent-cmd', path.join(home, 'no-agent')]);
    expect(failed.code).not.toBe(0);
    const listed = (await team(['run', 'list'])).json().runs as { runId: string; status: string }[];
    expect(listed.map((run) => run.status)).toEqual(['failed']);
    const kept = await team(['run', 'sweep']);
    expect(kept.json()).toMatchObject({ report: { removed: [] } });
    await settings({ 'runs.failedRetentionHours': 0 });
    const swept = await team(['run', 'sweep']);
    expect(swept.json()).toMatchObject({
      report: { removed: [{ runId: listed[0]?.runId, status: 'failed' }] },
    });
  });

  it('waits for a busy run state only as long as lock.timeoutMs (setting: lock.timeoutMs)', async () => {
    const { runId } = await start('solo');
    await settings({ 'lock.timeoutMs': 400 });
    // A send takes the recipient's inbox lock.
    const held = await acquireLock(runPaths(home, runId).inbox('implementer'));
    try {
      const sent = await team(['send', runId, '--to', 'implementer', 'hello']);
      expect(sent.json()).toMatchObject({
        ok: false,
        error: { code: 'LOCK_TIMEOUT', details: { timeoutMs: 400 } },
      });
    } finally {
      await held.release();
    }
  });
});
