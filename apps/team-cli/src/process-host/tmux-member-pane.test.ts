import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { SpawnMemberInput } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import { createTmuxRunner } from '@teamkit/team-core/tmux';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessHost } from './create-process-host.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
if (!hasTmux) console.warn('skipping tmux member-pane tests: tmux is not installed');

const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '__fixtures__',
  'pane-member.mjs',
);
const socket = `teamkit-test-${process.pid}-panes`;
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' }).trim();
const runId = '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
let home: string;

async function waitFor<T>(
  what: string,
  probe: () => T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

const readReport = (member: string) => {
  const file = path.join(home, `${member}.json`);
  return existsSync(file) && readFileSync(file, 'utf8').length > 0
    ? (JSON.parse(readFileSync(file, 'utf8')) as {
        member: string;
        run: string;
        pid: number;
        tty: boolean;
        args: string[];
      })
    : undefined;
};

const input = (member: string): SpawnMemberInput => ({
  runId,
  teamName: 'crew',
  member: { name: member, role: 'worker', isLead: false, prompt: `You are ${member}.` },
  cwd: home,
  env: { TEAMKIT_HOME: home, TEAMKIT_RUN: runId, TEAMKIT_MEMBER: member },
});

const panes = () =>
  tmux('list-panes', '-a', '-F', '#{pane_id}\t#{session_name}\t#{pane_title}\t#{@teamkit_member}')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));

describe.skipIf(!hasTmux)('process host members in tmux panes (real tmux)', () => {
  let callerPane: string;
  beforeAll(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'teamkit-panes-'));
    tmux('new-session', '-d', '-s', 'caller', '-x', '200', '-y', '50', 'sleep', '600');
    callerPane = tmux('list-panes', '-t', '=caller:', '-F', '#{pane_id}');
  });
  afterAll(() => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    const uid = process.getuid?.() ?? 0;
    rmSync(path.join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${uid}`, socket), { force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it('runs each member as its pane’s own process beside the caller, and stopping it closes only its pane', async () => {
    const marker = path.join(home, 'pwned');
    const host = createProcessHost({
      store: createFileStore({ root: home }),
      home,
      agentCommand: `'${process.execPath}' '${fixture}' '{home}/{member}.json' '$(touch ${marker})' 'a;b'`,
      tmux: { runner: createTmuxRunner({ socketName: socket }), callerPaneId: callerPane },
      stopGraceMs: 2_000,
    });
    const alpha = await host.spawnMember(input('alpha'));
    const beta = await host.spawnMember(input('beta'));
    const alphaReport = await waitFor('alpha to start', () => readReport('alpha'));
    const betaReport = await waitFor('beta to start', () => readReport('beta'));

    expect(alphaReport).toMatchObject({ member: 'alpha', run: runId, tty: true });
    expect(alphaReport.args).toEqual([`$(touch ${marker})`, 'a;b']);
    expect(alpha.sessionId).toBe(`proc-${alphaReport.pid}-${alpha.sessionId.split('-')[2]}`);
    expect(beta.sessionId.startsWith(`proc-${betaReport.pid}-`)).toBe(true);
    expect(existsSync(marker)).toBe(false);

    const inCaller = panes().filter(([, session]) => session === 'caller');
    expect(
      inCaller.map(([id, , title, member]) => [id === callerPane ? 'caller' : title, member]),
    ).toEqual([
      ['caller', ''],
      ['alpha', 'alpha'],
      ['beta', 'beta'],
    ]);
    expect(await host.isAlive(alpha.sessionId)).toBe(true);
    expect(host.attachCommand?.(alpha.sessionId)).toBeUndefined();

    await host.stopMember?.(alpha.sessionId);
    expect(await host.isAlive(alpha.sessionId)).toBe(false);
    await waitFor('alpha’s pane to close', () =>
      panes().some(([, , , member]) => member === 'alpha') ? undefined : true,
    );
    expect(panes().map(([id]) => id)).toContain(callerPane);
    expect(await host.isAlive(beta.sessionId)).toBe(true);
    await host.stopMember?.(beta.sessionId);
    expect(readFileSync(path.join(home, 'runtime', runId, 'member-panes.json'), 'utf8')).toContain(
      callerPane,
    );
  }, 60_000);

  it('gives a run without a caller pane its own detached session, gone once its members stop', async () => {
    const host = createProcessHost({
      store: createFileStore({ root: home }),
      home,
      agentCommand: `'${process.execPath}' '${fixture}' '{home}/{member}.json'`,
      tmux: { runner: createTmuxRunner({ socketName: socket }) },
      stopGraceMs: 2_000,
    });
    const gamma = await host.spawnMember(input('gamma'));
    const delta = await host.spawnMember(input('delta'));
    await waitFor('gamma to start', () => readReport('gamma'));
    await waitFor('delta to start', () => readReport('delta'));
    const session = `teamkit-${runId.slice(0, 8)}`;
    expect(
      panes()
        .filter(([, name]) => name === session)
        .map(([, , title]) => title),
    ).toEqual(['gamma', 'delta']);
    await host.stopMember?.(gamma.sessionId);
    await host.stopMember?.(delta.sessionId);
    await waitFor('the run session to end', () =>
      spawnSync('tmux', ['-L', socket, 'has-session', '-t', `=${session}`]).status === 0
        ? undefined
        : true,
    );
    expect(tmux('list-sessions', '-F', '#{session_name}')).toBe('caller');
  }, 60_000);
});
