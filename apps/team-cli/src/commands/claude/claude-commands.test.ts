import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createProcessProbe } from '@teamkit/claude-code';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_BIN, runCli } from '../../test-support/run-cli.js';

const TEAM = 'session-7a052ba9';
let configDir = '';
const leads: number[] = [];

/** Plants a Claude Code team whose lead is process `pid`, as Claude Code 2.1.328 writes it. */
async function plantTeam(
  team: string,
  pid: number,
  teammates: string[] = ['worker'],
): Promise<void> {
  const probe = createProcessProbe();
  const procStart = probe.startTimeOf(pid);
  const member = (name: string) => ({
    agentId: `${name}@${team}`,
    name,
    joinedAt: 1_796_128_941_796,
    tmuxPaneId: name === 'team-lead' ? 'leader' : 'in-process',
    cwd: '/projects/app',
    subscriptions: [],
    backendType: 'in-process',
  });
  await mkdir(path.join(configDir, 'teams', team, 'inboxes'), { recursive: true });
  await mkdir(path.join(configDir, 'tasks', team), { recursive: true });
  await writeFile(
    path.join(configDir, 'teams', team, 'config.json'),
    JSON.stringify({
      name: team,
      createdAt: 1_796_128_941_796,
      leadAgentId: `team-lead@${team}`,
      leadSessionId: '7a052ba9-39bd-4f9d-b8b5-0d256b7f354d',
      leadProcess: {
        pid,
        pidSpace: probe.pidSpace(),
        claimedAt: 1_796_128_941_794,
        ...(procStart === undefined ? {} : { procStart }),
      },
      members: ['team-lead', ...teammates].map(member),
    }),
  );
}

const claude = (args: string[]) => runCli(args, { CLAUDE_CONFIG_DIR: configDir });

beforeEach(async () => {
  configDir = await mkdtemp(path.join(os.tmpdir(), 'teamkit-cli-claude-'));
});
afterEach(async () => {
  for (const pid of leads.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await rm(configDir, { recursive: true, force: true });
});

describe('team … --claude', () => {
  it('lists Claude Code teams and shows one as a board, by a prefix of its name', async () => {
    await plantTeam(TEAM, process.pid);
    await writeFile(
      path.join(configDir, 'tasks', TEAM, '1.json'),
      JSON.stringify({
        id: '1',
        subject: 'Write the README',
        description: '',
        status: 'in_progress',
        owner: 'worker',
        blocks: [],
        blockedBy: [],
      }),
    );

    const listed = await claude(['run', 'list', '--claude', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json()).toMatchObject({
      teams: [{ name: TEAM, liveness: { status: 'live' }, memberCount: 2 }],
    });

    const board = await claude(['board', '--claude', '7a05']);
    expect(board.code, board.stderr).toBe(0);
    expect(board.stdout).toContain(`Claude Code team ${TEAM}  live`);
    expect(board.stdout).toContain('#1 Write the README (worker)');
    expect(board.stdout).toContain('Delivered messages are not shown');

    const only = await claude(['board', '--claude', '--json']);
    expect(only.json()).toMatchObject({ team: { name: TEAM } });
  });

  it('sends a message and creates a task, and refuses broadcast with its own exit code', async () => {
    await plantTeam(TEAM, process.pid);

    const sent = await claude([
      'send',
      '--claude',
      TEAM,
      '--to',
      'worker',
      'please',
      'review',
      '--json',
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.json()).toMatchObject({ message: { to: 'worker', state: 'pending' } });
    const inbox = JSON.parse(
      await readFile(path.join(configDir, 'teams', TEAM, 'inboxes', 'worker.json'), 'utf8'),
    );
    expect(inbox).toMatchObject([{ from: 'teamkit', text: 'please review', read: false }]);

    const created = await claude([
      'task',
      'create',
      '--claude',
      TEAM,
      'Write',
      'docs',
      '--description',
      'all of them',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json()).toMatchObject({
      task: { id: '1', subject: 'Write docs', description: 'all of them' },
    });

    const broadcast = await claude(['send', '--claude', TEAM, '--to', '*', 'hello', '--json']);
    expect(broadcast.code).toBe(5);
    expect(broadcast.json()).toMatchObject({ ok: false, error: { code: 'BROADCAST_UNSUPPORTED' } });
    const unknown = await claude(['send', '--claude', TEAM, '--to', 'nobody', 'hello']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('UNKNOWN_RECIPIENT');
  });

  it('watches a team until its lead ends', async () => {
    const lead = spawn('sleep', ['600'], { stdio: 'ignore' });
    leads.push(lead.pid as number);
    await plantTeam(TEAM, lead.pid as number);
    const watcher = spawn(process.execPath, [CLI_BIN, 'watch', '--claude', TEAM], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    watcher.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => watcher.on('close', resolve));
    const deadline = Date.now() + 30_000;
    while (!out.includes('"live"') && Date.now() < deadline) await delay(20);

    process.kill(lead.pid as number, 'SIGKILL');

    expect(await exited).toBe(0);
    const changes = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(changes.at(0)).toMatchObject({
      type: 'updated',
      team: { name: TEAM, liveness: { status: 'live' } },
    });
    expect(changes.at(-1)).toMatchObject({
      type: 'updated',
      team: { liveness: { status: 'finished' } },
    });
  });
});
