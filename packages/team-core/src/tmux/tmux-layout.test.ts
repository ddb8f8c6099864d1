import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { createRunState, readRunState, transitionRun } from '../state/run-state-store.js';
import { makeSpec } from '../state/test-support/temp-home.js';
import { createFileStore } from '../storage/index.js';
import { closeRunLayout, openRunLayout } from './run-layout.js';
import { sweepStaleSessions } from './sweep-stale-sessions.js';
import {
  closeMemberPane,
  createTmuxLayout,
  type LayoutMember,
  layoutSessionName,
  listPanes,
  listTeamkitSessions,
  rebalanceLayout,
  removeTmuxLayout,
} from './tmux-layout.js';
import { createTmuxRunner, type TmuxRunner } from './tmux-runner.js';

function tmuxVersion(): string | undefined {
  try {
    return execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}
const version = tmuxVersion();
if (version === undefined) console.log('Skipping tmux layout tests: tmux is not installed.');

const socketName = `teamkit-test-${process.pid}-1`;
const runA = '11111111-aaaa-4aaa-8aaa-111111111111';
const runB = '22222222-bbbb-4bbb-8bbb-222222222222';
const runC = '33333333-cccc-4ccc-8ccc-333333333333';

const sleeper = (name: string, color?: string): LayoutMember => ({
  name,
  color,
  command: ['sleep', '600'],
});

async function waitFor(check: () => Promise<boolean>, attempts = 100): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await check()) return true;
    await delay(50);
  }
  return false;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe.skipIf(version === undefined)('tmux layouts on a private tmux server', () => {
  let runner: TmuxRunner;
  let callerPane: string;
  let callerWindow: string;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'teamkit-tmux-'));
    runner = createTmuxRunner({ socketName });
    const out = await runner.run([
      'new-session',
      '-d',
      '-s',
      'caller',
      '-x',
      '220',
      '-y',
      '60',
      '-P',
      '-F',
      '#{pane_id}\t#{window_id}',
      '--',
      'sleep',
      '600',
    ]);
    [callerPane = '', callerWindow = ''] = out.trim().split('\t');
  });
  afterAll(async () => {
    const socketFile = (
      await runner?.tryRun(['display-message', '-p', '#{socket_path}'])
    )?.stdout.trim();
    await runner?.tryRun(['kill-server']);
    if (socketFile) await rm(socketFile, { force: true });
    await rm(dir, { recursive: true, force: true });
  });

  const windowPanes = async (windowId: string) =>
    (await listPanes(runner)).filter((pane) => pane.windowId === windowId);

  it('splits the caller window for 4 members with titles and commands, and removes only them', async () => {
    const layout = await createTmuxLayout({
      runner,
      runId: runA,
      callerPaneId: callerPane,
      members: [
        sleeper('planner', 'red'),
        sleeper('writer', 'colour33'),
        sleeper('reviewer', '#ff8800'),
        sleeper('tester'),
      ],
    });
    expect(layout).toMatchObject({
      mode: 'caller-window',
      windowId: callerWindow,
      callerPaneId: callerPane,
      ownedSession: false,
    });
    const panes = await windowPanes(callerWindow);
    expect(panes).toHaveLength(5);
    for (const name of ['planner', 'writer', 'reviewer', 'tester']) {
      const pane = panes.find((p) => p.paneId === layout.paneIds[name]);
      expect(pane).toMatchObject({ title: name, member: name, runId: runA });
      expect(pane?.startCommand).toContain('exec sleep 600');
    }
    const active = (
      await runner.run(['display-message', '-p', '-t', callerWindow, '#{pane_id}'])
    ).trim();
    expect(active).toBe(callerPane);
    const color = (
      await runner.run([
        'display-message',
        '-p',
        '-t',
        layout.paneIds.writer ?? '',
        '#{@teamkit_color}',
      ])
    ).trim();
    expect(color).toBe('colour33');
    expect(await rebalanceLayout(runner, layout)).toBe(true);

    const closed = await closeMemberPane(runner, runA, layout, 'tester');
    expect(closed.report.killed).toEqual([layout.paneIds.tester]);
    expect(Object.keys(closed.layout.paneIds).sort()).toEqual(['planner', 'reviewer', 'writer']);

    const removal = await removeTmuxLayout(runner, runA, closed.layout);
    expect(removal.killed).toHaveLength(3);
    const left = await windowPanes(callerWindow);
    expect(left.map((pane) => pane.paneId)).toEqual([callerPane]);
    const borders = await runner.run(['show-options', '-w', '-t', callerWindow]);
    expect(borders).not.toContain('pane-border-format');
  });

  it('reports a missing tmux as TMUX_UNAVAILABLE', async () => {
    const missing = createTmuxRunner({ socketName, tmux: 'tmux-not-installed-teamkit' });
    await expect(missing.run(['list-sessions'])).rejects.toMatchObject({
      code: 'TMUX_UNAVAILABLE',
    });
  });

  it('creates a detached tiled session for 4 members outside tmux and removes it whole', async () => {
    const layout = await createTmuxLayout({
      runner,
      runId: runB,
      members: ['planner', 'writer', 'reviewer', 'tester'].map((name) => sleeper(name)),
    });
    expect(layout).toMatchObject({
      mode: 'detached-session',
      ownedSession: true,
      sessionName: layoutSessionName(runB),
    });
    const panes = await windowPanes(layout.windowId ?? '');
    expect(panes.map((pane) => pane.title).sort()).toEqual([
      'planner',
      'reviewer',
      'tester',
      'writer',
    ]);
    expect(panes.every((pane) => pane.startCommand.includes('exec sleep 600'))).toBe(true);
    expect((await listTeamkitSessions(runner)).map((s) => [s.name, s.runId])).toEqual([
      ['teamkit-22222222', runB],
    ]);
    await expect(
      createTmuxLayout({ runner, runId: runB, members: [sleeper('again')] }),
    ).rejects.toMatchObject({ code: 'TMUX_FAILED' });

    const removal = await removeTmuxLayout(runner, runB, layout);
    expect(removal.killed).toHaveLength(1);
    expect(await listTeamkitSessions(runner)).toEqual([]);
    expect((await listPanes(runner)).map((pane) => pane.paneId)).toEqual([callerPane]);
  });

  it('passes hostile attach arguments as inert text', async () => {
    const markers = ['m1', 'm2', 'm3', 'm4'].map((name) => path.join(dir, name));
    const hostile = `x'; touch ${markers[0]}; '$(touch ${markers[1]})\`touch ${markers[2]}\`"; touch ${markers[3]} #`;
    const received = path.join(dir, 'received.txt');
    const layout = await createTmuxLayout({
      runner,
      runId: runC,
      callerPaneId: callerPane,
      members: [
        {
          name: 'quoter',
          command: [
            'sh',
            '-c',
            'printf %s "$1" > "$2"; exec sleep 600',
            'argv0',
            hostile,
            received,
          ],
        },
      ],
    });
    expect(await waitFor(() => exists(received))).toBe(true);
    expect(await waitFor(async () => (await readFile(received, 'utf8')) === hostile)).toBe(true);
    for (const marker of markers) expect(await exists(marker)).toBe(false);
    await removeTmuxLayout(runner, runC, layout);
  });

  it('rolls back only its own panes when a step fails and reports what failed', async () => {
    let splits = 0;
    const faulty: TmuxRunner = {
      ...runner,
      run: async (args) => {
        if (args[0] === 'split-window' && ++splits === 3) throw new Error('injected split failure');
        return runner.run(args);
      },
    };
    const failure = await createTmuxLayout({
      runner: faulty,
      runId: runA,
      callerPaneId: callerPane,
      members: ['a', 'b', 'c', 'd'].map((name) => sleeper(name)),
    }).catch((error: unknown) => error);
    expect(isTeamkitError(failure, 'TMUX_FAILED')).toBe(true);
    const details = (failure as { details: Record<string, unknown> }).details;
    expect(details).toMatchObject({ step: 'split-window', member: 'c' });
    expect(details.created).toHaveLength(2);
    expect(details.removed).toEqual(details.created);
    expect((await windowPanes(callerWindow)).map((pane) => pane.paneId)).toEqual([callerPane]);
  });

  it('records the layout in run state, and sweeps only sessions of runs that are not active', async () => {
    const home = path.join(dir, 'home');
    const make = async () => {
      const state = await createRunState(
        home,
        {
          spec: makeSpec(['writer', 'reviewer']),
          teamSource: { scope: 'inline' },
          hostId: 'test',
        },
        { store: createFileStore({ root: home }) },
      );
      await transitionRun(home, state.runId, 'active', { store: createFileStore({ root: home }) });
      return state.runId;
    };
    const live = await make();
    const dead = await make();
    const attach = () => ['sleep', '600'];
    const liveLayout = await openRunLayout({
      store: createFileStore({ root: home }),
      home,
      runId: live,
      runner,
      attachCommand: attach,
    });
    await openRunLayout({
      store: createFileStore({ root: home }),
      home,
      runId: dead,
      runner,
      attachCommand: attach,
    });
    const leftBehind = await make();
    const inCaller = await openRunLayout({
      store: createFileStore({ root: home }),
      home,
      runId: leftBehind,
      runner,
      callerPaneId: callerPane,
      attachCommand: attach,
    });
    const state = await readRunState(home, live, { store: createFileStore({ root: home }) });
    expect(state.tmuxLayout).toEqual(liveLayout);
    expect(state.members.map((m) => m.tmuxPaneId)).toEqual(Object.values(liveLayout.paneIds));
    await runner.run(['new-session', '-d', '-s', 'user-work', '--', 'sleep', '600']);

    await transitionRun(home, dead, 'deleting', { store: createFileStore({ root: home }) });
    await transitionRun(home, dead, 'deleted', { store: createFileStore({ root: home }) });
    await transitionRun(home, leftBehind, 'orphaned', { store: createFileStore({ root: home }) });
    const report = await sweepStaleSessions({
      store: createFileStore({ root: home }),
      runner,
      home,
    });
    expect(report.killedSessions).toEqual([layoutSessionName(dead)]);
    expect(report.killedPanes.sort()).toEqual(Object.values(inCaller.paneIds).sort());
    expect(report.keptSessions).toEqual([layoutSessionName(live)]);
    expect((await windowPanes(callerWindow)).map((pane) => pane.paneId)).toEqual([callerPane]);
    const sessions = (await runner.run(['list-sessions', '-F', '#{session_name}']))
      .trim()
      .split('\n')
      .sort();
    expect(sessions).toEqual(['caller', layoutSessionName(live), 'user-work'].sort());

    const closed = await closeRunLayout({
      store: createFileStore({ root: home }),
      home,
      runId: live,
      runner,
    });
    expect(closed.killed).toHaveLength(1);
    expect(
      (await readRunState(home, live, { store: createFileStore({ root: home }) })).tmuxLayout,
    ).toBeUndefined();
    expect((await listTeamkitSessions(runner)).map((s) => s.name)).toEqual([]);
  });
});
