import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createMailbox, TEAMKIT_ERROR_CODES } from '@teamkit/team-core';
import { TeamSpecSchema, USER_PARTICIPANT } from '@teamkit/team-core/schema';
import { createRunState, transitionRun } from '@teamkit/team-core/state';
import { createFileStore, runPaths } from '@teamkit/team-core/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, createTempHome, runCli } from '../../test-support/run-cli.js';

// `team inbox --ack` must show mail before it acknowledges it: a process killed at any
// moment may leave shown mail unread (shown twice later), never acknowledged mail that
// was not shown. Run as the user, who reads its own inbox (`user`).

let home: string;
let cleanup: () => Promise<void>;
let runId: string;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

beforeAll(async () => {
  ({ home, cleanup } = await createTempHome());
  const spec = TeamSpecSchema.parse({
    id: 'ack-team',
    name: 'Ack team',
    lead: 'lead',
    members: [
      { name: 'lead', role: 'lead', prompt: 'You lead.' },
      { name: 'writer', role: 'writer', prompt: 'You write.' },
    ],
    policy: { unreadMaxBytes: 64 * 1024 * 1024 },
  });
  const state = await createRunState(
    home,
    {
      spec,
      teamSource: { scope: 'inline' },
      hostId: 'test',
    },
    { store: createFileStore({ root: home }) },
  );
  runId = state.runId;
  await transitionRun(home, runId, 'active', { store: createFileStore({ root: home }) });
});
afterAll(async () => {
  await cleanup();
});

const inbox = () => runPaths(home, runId).inbox(USER_PARTICIPANT);
const mailbox = () => createMailbox({ store: createFileStore({ root: home }), home, runId });

async function send(count: number, body = 'hello'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    ids.push(
      (await mailbox().sendMessage({ from: 'writer', to: USER_PARTICIPANT, body })).messageId,
    );
  }
  return ids;
}

async function processedIds(): Promise<string[]> {
  const names = await readdir(path.join(inbox(), 'processed')).catch(() => []);
  return names.flatMap((name) => name.match(UUID) ?? []);
}

async function unreadIds(): Promise<string[]> {
  const names = await readdir(inbox());
  return names
    .filter((name) => /^[0-9a-f-]{36}\.json$/.test(name))
    .map((name) => name.slice(0, 36));
}

/** Starts `team inbox <run> --ack --json`, collecting everything it prints on stdout. */
function startInbox(): {
  child: ChildProcess;
  stdout: () => string;
  exited: Promise<string | null>;
} {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of ['TEAMKIT_HOME', 'TEAMKIT_RUN', 'TEAMKIT_MEMBER', 'TMUX', 'TMUX_PANE']) {
    delete env[name];
  }
  const child = spawn(
    process.execPath,
    [CLI_BIN, 'inbox', runId, '--ack', '--json', '--home', home],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  child.stderr?.resume();
  // 'close' comes after every byte of stdout was read, also after a SIGKILL.
  const exited = new Promise<string | null>((resolve) =>
    child.once('close', (_code, signal) => resolve(signal)),
  );
  return { child, stdout: () => text, exited };
}

describe('team inbox --ack', () => {
  it('acknowledges only mail it has shown, when killed at random moments (60 trials)', async () => {
    // How long a whole run takes here, so the kills spread over its life.
    await send(3);
    const started = performance.now();
    const calibration = startInbox();
    await calibration.exited;
    const lifetime = performance.now() - started;
    const shown = new Set(calibration.stdout().match(UUID) ?? []);
    let killed = 0;
    for (let trial = 0; trial < 60; trial += 1) {
      await send(3);
      const run = startInbox();
      const killAfter = lifetime * (0.3 + Math.random() * 0.9);
      const timer = setTimeout(() => {
        if (run.child.kill('SIGKILL')) killed += 1;
      }, killAfter);
      const signal = await run.exited;
      clearTimeout(timer);
      if (signal !== 'SIGKILL' && run.child.exitCode !== 0)
        throw new Error(`trial ${trial} failed`);
      for (const id of run.stdout().match(UUID) ?? []) shown.add(id);
    }
    const processed = await processedIds();
    expect(processed.length, 'some runs acknowledged mail').toBeGreaterThan(0);
    expect(killed, 'some runs were killed').toBeGreaterThan(0);
    expect(processed.filter((id) => !shown.has(id))).toEqual([]);
  }, 300_000);

  it('leaves mail unread while the reader of its output stalls, until it was handed over', async () => {
    // More output than the pipe between the processes holds (a socket pair with large
    // buffers): the command cannot finish printing until it is read.
    const ids = await send(48, 'x'.repeat(30_000));
    const before = new Set(await processedIds());
    const run = startInbox();
    await new Promise<void>((resolve) => run.child.stdout?.once('data', () => resolve()));
    run.child.stdout?.pause();
    // The old order acknowledged before printing; give it ample time to do so.
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline && (await processedIds()).every((id) => before.has(id))) {
      await delay(50);
    }
    run.child.kill('SIGKILL');
    run.child.stdout?.resume();
    await run.exited;
    const shown = new Set(run.stdout().match(UUID) ?? []);
    const acknowledged = (await processedIds()).filter((id) => !before.has(id));
    expect(acknowledged.filter((id) => !shown.has(id))).toEqual([]);
    // Nothing was lost either: every message is shown-and-acknowledged or still unread.
    const unread = new Set(await unreadIds());
    expect(ids.filter((id) => !unread.has(id) && !acknowledged.includes(id))).toEqual([]);
    await mailbox().acknowledge(USER_PARTICIPANT, [...unread]);
  }, 120_000);

  it('shows the mail and gives a typed error when acknowledging hits a full disk', async () => {
    if (!existsSync('/dev/full')) {
      console.warn('skipped: this system has no /dev/full to stand for a full disk');
      return;
    }
    const ids = await send(2);
    // Every write to the inbox's version token now fails with ENOSPC.
    const token = path.join(inbox(), '.version');
    await unlink(token).catch(() => {});
    await symlink('/dev/full', token);
    try {
      const result = await runCli(['inbox', runId, '--ack', '--json', '--home', home]);
      expect(result.code).not.toBe(0);
      const printed = result.json() as { ok: boolean; messages: { messageId: string }[] };
      expect(printed.messages.map((message) => message.messageId).sort()).toEqual(
        expect.arrayContaining([...ids].sort()),
      );
      const code = /error ([A-Z_]+):/.exec(result.stderr)?.[1];
      expect(Object.keys(TEAMKIT_ERROR_CODES), result.stderr).toContain(code);
      expect(await unreadIds()).toEqual(expect.arrayContaining(ids));
    } finally {
      await unlink(token);
    }
    await mailbox().acknowledge(USER_PARTICIPANT, ids);
  }, 60_000);
});

describe('team ack', () => {
  it('refuses an id that is not in the inbox with UNKNOWN_MESSAGE, acknowledging the rest', async () => {
    const [id] = await send(1);
    const missing = '00000000-0000-4000-8000-000000000000';
    const result = await runCli(['ack', runId, id as string, missing, '--json', '--home', home]);
    expect(result.code).toBe(3);
    expect(result.json()).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_MESSAGE', details: { acknowledged: [id], missing: [missing] } },
    });
    expect(await processedIds()).toContain(id);
    const again = await runCli(['ack', runId, id as string, '--json', '--home', home]);
    expect(again.code, again.stdout).toBe(0);
  }, 60_000);
});
