import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClaudeTeamView } from './claude-team-view.js';
import { createClaudeTeamSource } from './create-claude-team-source.js';
import type { ProcessProbe } from './process-probe.js';
import {
  plantedEntry,
  plantedTask,
  plantInbox,
  plantTasks,
  plantTeam,
  TEST_PID_SPACE,
  useConfigDir,
} from './test-support/plant-team.js';
import { startWorkerProcess, useWorkerCleanup } from './test-support/worker-process.js';
import type { ClaudeTeamChange, ClaudeTeamWatch } from './watch-claude-teams.js';

let configDir = '';
useConfigDir((folder) => {
  configDir = folder;
});

const running = new Map<number, string>();
const probe: ProcessProbe = {
  pidSpace: () => TEST_PID_SPACE,
  isRunning: (pid) => running.has(pid),
  startTimeOf: (pid) => running.get(pid),
};

useWorkerCleanup();

let watch: ClaudeTeamWatch | undefined;
afterEach(() => {
  watch?.close();
  watch = undefined;
  running.clear();
});

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

function start(options: { team?: string } = {}) {
  const changes: ClaudeTeamChange[] = [];
  const errors: unknown[] = [];
  watch = createClaudeTeamSource({ configDir, probe }).watch((change) => changes.push(change), {
    debounceMs: 20,
    reconcileMs: 150,
    onError: (error) => errors.push(error),
    ...options,
  });
  const latest = (name: string): ClaudeTeamView | undefined => {
    for (let i = changes.length - 1; i >= 0; i -= 1) {
      const change = changes[i];
      if (change?.type === 'updated' && change.team.name === name) return change.team;
      if (change?.type === 'removed' && change.name === name) return undefined;
    }
    return undefined;
  };
  return { changes, errors, latest };
}

describe('watching Claude Code teams', () => {
  it('reports each team once at the start, then members, tasks and messages as they change', async () => {
    running.set(4242, '104284');
    await plantTeam(configDir, 'session-11110001');
    const { changes, errors, latest } = start();
    await watch?.ready;
    expect(changes.map((change) => change.type)).toEqual(['updated']);

    await plantTasks(configDir, 'session-11110001', { '1': plantedTask('1') });
    await waitFor(
      () => (latest('session-11110001')?.tasks.length === 1 ? true : undefined),
      'the task',
    );

    await plantTeam(configDir, 'session-11110001', { teammates: ['worker'] });
    await plantInbox(configDir, 'session-11110001', 'worker', [plantedEntry('team-lead', 'start')]);
    const view = await waitFor(() => {
      const team = latest('session-11110001');
      return team?.members.length === 2 && team.pendingMessages === 1 ? team : undefined;
    }, 'the teammate and its message');
    expect(view.inboxes[0]?.pending[0]?.text).toBe('start');

    // Nothing changed: the periodic reads report nothing new.
    const count = changes.length;
    await delay(500);
    expect(changes.length).toBe(count);
    expect(errors).toEqual([]);
  });

  it('reports tasks, teammates and messages from file events alone', async () => {
    running.set(4242, '104284');
    await plantTeam(configDir, 'session-11110002');
    const changes: ClaudeTeamChange[] = [];
    const errors: unknown[] = [];
    // No periodic read during the test: only file events can report.
    watch = createClaudeTeamSource({ configDir, probe }).watch((change) => changes.push(change), {
      debounceMs: 20,
      reconcileMs: 600_000,
      onError: (error) => errors.push(error),
    });
    await watch.ready;
    const latest = () => {
      const last = changes.at(-1);
      return last?.type === 'updated' ? last.team : undefined;
    };
    // A task list folder made after the watch began.
    await plantTasks(configDir, 'session-11110002', { '1': plantedTask('1') });
    await waitFor(() => (latest()?.tasks.length === 1 ? true : undefined), 'the task');
    await plantTeam(configDir, 'session-11110002', { teammates: ['worker'] });
    await plantInbox(configDir, 'session-11110002', 'worker', [plantedEntry('team-lead', 'go')]);
    await waitFor(
      () => (latest()?.members.length === 2 && latest()?.pendingMessages === 1 ? true : undefined),
      'the teammate and its message',
    );
    expect(errors).toEqual([]);
  });

  it('notices a lead that died without touching a file, and a team that ended and was removed', async () => {
    running.set(4242, '104284');
    await plantTeam(configDir, 'session-22220001');
    await plantTasks(configDir, 'session-22220001', { '1': plantedTask('1') });
    const { latest, changes } = start();
    await watch?.ready;
    expect(latest('session-22220001')?.liveness.status).toBe('live');

    running.delete(4242);
    await waitFor(
      () => (latest('session-22220001')?.liveness.status === 'finished' ? true : undefined),
      'finished',
    );

    await rm(path.join(configDir, 'teams', 'session-22220001'), { recursive: true });
    await waitFor(
      () => (latest('session-22220001')?.hasConfig === false ? true : undefined),
      'the folder gone',
    );

    await rm(path.join(configDir, 'tasks', 'session-22220001'), { recursive: true });
    await waitFor(
      () =>
        changes.find((change) => change.type === 'removed' && change.name === 'session-22220001'),
      'removed',
    );
  });

  it('sees a team that appears after the watch started in an empty config folder', async () => {
    running.set(4242, '104284');
    const { latest } = start();
    await watch?.ready;

    await plantTeam(configDir, 'session-33330001');

    const view = await waitFor(() => latest('session-33330001'), 'the new team');
    expect(view.liveness.status).toBe('live');
  });

  it('watches one team only, and keeps going when the listener throws', async () => {
    running.set(4242, '104284');
    await plantTeam(configDir, 'session-44440001');
    await plantTeam(configDir, 'session-44440002');
    const seen: string[] = [];
    const errors: unknown[] = [];
    watch = createClaudeTeamSource({ configDir, probe }).watch(
      (change) => {
        if (change.type === 'updated') seen.push(`${change.team.name}:${change.team.tasks.length}`);
        throw new Error('listener failed');
      },
      {
        team: 'session-44440001',
        debounceMs: 20,
        reconcileMs: 150,
        onError: (error) => errors.push(error),
      },
    );
    await watch.ready;

    await plantTasks(configDir, 'session-44440002', { '1': plantedTask('1') });
    await plantTasks(configDir, 'session-44440001', { '1': plantedTask('1') });

    await waitFor(
      () => (seen.includes('session-44440001:1') ? true : undefined),
      'the second read',
    );
    expect(seen.every((entry) => entry.startsWith('session-44440001'))).toBe(true);
    expect(errors.length).toBeGreaterThanOrEqual(2);
  });

  it('lets the process exit once the listener closed the watch', async () => {
    await plantTeam(configDir, 'session-55550001');
    const worker = startWorkerProcess('watch-once.mjs', [configDir]);

    expect(await worker.exited).toBe(0);
    expect(worker.lines()).toEqual(['updated']);
  });

  it("picks up the lead's version from its session file, written just after the team", async () => {
    running.set(4242, '104284');
    const config = await plantTeam(configDir, 'session-66660001');
    const changes: ClaudeTeamChange[] = [];
    // No periodic read during the test: only the file event can bring the version.
    watch = createClaudeTeamSource({ configDir, probe }).watch((change) => changes.push(change), {
      debounceMs: 20,
      reconcileMs: 600_000,
    });
    await watch.ready;
    expect(changes).toEqual([expect.objectContaining({ type: 'updated' })]);

    await mkdir(path.join(configDir, 'sessions'), { recursive: true });
    await writeFile(
      path.join(configDir, 'sessions', '4242.json'),
      JSON.stringify({ pid: 4242, sessionId: config.leadSessionId, version: '2.1.328' }),
    );

    const change = await waitFor(
      () => changes.find((entry) => entry.type === 'updated' && entry.team.version === '2.1.328'),
      'the version',
    );
    expect(change.type).toBe('updated');
  });
});
