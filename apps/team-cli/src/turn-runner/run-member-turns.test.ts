import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createMailbox, openRun } from '@teamkit/team-core';
import { TeamSpecSchema } from '@teamkit/team-core/schema';
import {
  createRunState,
  startMember,
  transitionMember,
  transitionRun,
} from '@teamkit/team-core/state';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterEach, describe, expect, it } from 'vitest';
import type { PreparedAgent } from '../agent-presets/index.js';
import { readWaitingMarker } from '../process-host/member-presence.js';
import { createTempHome } from '../test-support/run-cli.js';
import { createMemberTurns, type MemberTurnsOptions } from './run-member-turns.js';
import { readTurnSession } from './turn-session.js';

// The turn runner's loop against a real run (state, mailbox) and a real one-shot process:
// a small Node script standing in for an agent CLI.

const FAKE_AGENT = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '__fixtures__',
  'one-shot-agent.mjs',
);

interface Turn {
  member: string;
  resumed: string | null;
  prompt: string;
  code: number;
}

// Long enough that only a watch can explain a turn starting within a test's deadline.
const RECONCILE_MS = 60_000;

const cleanups: (() => Promise<void>)[] = [];
const controllers: AbortController[] = [];
const runners: Promise<unknown>[] = [];
afterEach(async () => {
  for (const controller of controllers.splice(0)) controller.abort();
  await Promise.allSettled(runners.splice(0));
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

async function setUp(options: { maxTurnsPerMember?: number; started?: boolean } = {}) {
  const { home, cleanup } = await createTempHome();
  cleanups.push(cleanup);
  const spec = TeamSpecSchema.parse({
    id: 'crew',
    name: 'crew',
    lead: 'lead',
    members: [
      { name: 'lead', role: 'lead', prompt: 'You lead.' },
      { name: 'worker', role: 'worker', prompt: 'You work.' },
    ],
    policy: { bounds: { maxTurnsPerMember: options.maxTurnsPerMember ?? 500 } },
  });
  const state = await createRunState(
    home,
    {
      spec,
      teamSource: { scope: 'inline' },
      hostId: 'process',
    },
    { store: createFileStore({ root: home }) },
  );
  const runId = state.runId;
  await transitionRun(home, runId, 'active', { store: createFileStore({ root: home }) });
  const startWorker = () =>
    startMember(
      home,
      runId,
      'worker',
      { sessionId: 'proc-3-1' },
      { store: createFileStore({ root: home }) },
    );
  await startMember(
    home,
    runId,
    'lead',
    { sessionId: 'proc-2-1' },
    { store: createFileStore({ root: home }) },
  );
  if (options.started !== false) await startWorker();
  const promptFile = path.join(home, 'runtime', runId, 'prompts', 'worker.md');
  await mkdir(path.dirname(promptFile), { recursive: true });
  await writeFile(promptFile, 'You work.\n\n## Team protocol\n');
  const log = path.join(home, 'turns.jsonl');
  const agent: PreparedAgent = {
    files: [],
    env: {},
    turnArgv: ({ prompt, sessionId }) => [
      process.execPath,
      FAKE_AGENT,
      '--prompt',
      prompt,
      ...(sessionId === undefined ? [] : ['--resume', sessionId]),
    ],
    sessionIdFrom: (stdout) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      try {
        return (JSON.parse(line) as { session_id?: string }).session_id;
      } catch {
        return undefined;
      }
    },
  };
  const mailbox = createMailbox({ store: createFileStore({ root: home }), home, runId });
  const output: string[] = [];
  const controller = new AbortController();
  controllers.push(controller);
  const start = (member = 'worker', overrides: Partial<MemberTurnsOptions> = {}) => {
    const runner = createMemberTurns({
      store: createFileStore({ root: home }),
      home,
      runId,
      member,
      agent,
      cwd: home,
      env: { ...process.env, ONE_SHOT_LOG: log, TEAMKIT_MEMBER: member },
      promptFile,
      reconcileMs: RECONCILE_MS,
      retryDelayMs: 10,
      signal: controller.signal,
      log: (line) => output.push(line),
      echo: { stdout: () => {}, stderr: () => {} },
      ...overrides,
    });
    return {
      interrupt: () => runner.interrupt(),
      run: () => {
        const done = runner.run();
        runners.push(done);
        return done;
      },
    };
  };
  const turns = (): Turn[] =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Turn)
      : [];
  const failNext = (...codes: number[]) =>
    writeFileSync(`${log}.exit`, codes.map((code) => `${code}\n`).join(''));
  return {
    home,
    runId,
    mailbox,
    start,
    startWorker,
    turns,
    failNext,
    controller,
    output,
    promptFile,
  };
}

describe('the turn runner', () => {
  it('takes a first turn with the prompt, waits idle, then continues the conversation with new mail', async () => {
    const run = await setUp();
    const runner = run.start();
    const done = runner.run();
    const first = await waitFor('the first turn', () => run.turns()[0]);
    expect(first.resumed).toBeNull();
    expect(first.prompt).toContain('You work.');
    expect(first.prompt).toContain('## How your turns work');
    await waitFor('the waiting marker', () =>
      readWaitingMarker(run.runId, 'worker', createFileStore({ root: run.home })),
    );
    const session = await readTurnSession(run.home, run.runId, 'worker');
    expect(session?.sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const sent = await run.mailbox.sendMessage({ from: 'lead', to: 'worker', body: 'please do X' });
    const { messageId } = sent;
    const second = await waitFor('the second turn', () => run.turns()[1]);
    expect(second.resumed).toBe(session?.sessionId);
    expect(second.prompt).toContain('please do X');
    expect(second.prompt).not.toContain('You work.');
    // Acknowledged once the turn ended well: nothing unread, nothing reserved.
    await waitFor('the mail to be acknowledged', async () =>
      (await run.mailbox.listUnread('worker')).messages.length === 0 &&
      (await readTurnSession(run.home, run.runId, 'worker'))?.turns === 2
        ? true
        : undefined,
    );
    expect(JSON.stringify(await run.mailbox.listUnread('worker'))).not.toContain(messageId);
    const state = await openRun({
      home: run.home,
      runId: run.runId,
      store: createFileStore({ root: run.home }),
    }).state.read();
    expect(state.members.find((member) => member.name === 'worker')?.turns).toBe(2);

    run.controller.abort();
    expect((await done).code).toBe(0);
    expect(
      await readWaitingMarker(run.runId, 'worker', createFileStore({ root: run.home })),
    ).toBeUndefined();
  }, 60_000);

  it('starts a turn from the watches alone: the member being started, then new mail', async () => {
    // The worker's spawn is not recorded yet (pending): the runner waits for the run state
    // to change. With a reconcile of a minute, a turn that starts within the 30 s deadline
    // of waitFor was started by the state watch, and the second one by the inbox watch.
    const run = await setUp({ started: false });
    const done = run.start().run();
    await waitFor('the runner to wait for the spawn', () =>
      run.output.some((line) => line.includes('waits for its start')) ? true : undefined,
    );
    expect(run.turns()).toEqual([]);
    await run.startWorker();
    await waitFor('the first turn', () => run.turns()[0]);
    await waitFor('the waiting marker', () =>
      readWaitingMarker(run.runId, 'worker', createFileStore({ root: run.home })),
    );
    await run.mailbox.sendMessage({ from: 'lead', to: 'worker', body: 'watched' });
    const second = await waitFor('the turn the new mail starts', () => run.turns()[1]);
    expect(second.prompt).toContain('watched');
    run.controller.abort();
    expect((await done).code).toBe(0);
  }, 60_000);

  it('retries a failing turn with backoff, then gives up with its mail back to unread', async () => {
    const run = await setUp();
    run.failNext(0, 1, 1, 1);
    const runner = run.start('worker', { retries: 2 });
    const done = runner.run();
    await waitFor('the first turn', () => run.turns()[0]);
    await run.mailbox.sendMessage({ from: 'lead', to: 'worker', body: 'crash on this' });
    const outcome = await done;
    expect(outcome.code).toBe(1);
    expect(outcome.reason).toContain('failed 3 times');
    expect(run.turns().map((turn) => turn.code)).toEqual([0, 1, 1, 1]);
    // Each retry is counted as a turn; the mail is unread again for whoever comes next.
    const unread = (await run.mailbox.listUnread('worker')).messages;
    expect(unread.map((message) => message.body)).toEqual(['crash on this']);
    expect(run.output.some((line) => line.includes('retrying'))).toBe(true);
  }, 60_000);

  it('acknowledges the mail of a turn that succeeds on a retry', async () => {
    const run = await setUp();
    run.failNext(0, 7);
    const done = run.start().run();
    await waitFor('the first turn', () => run.turns()[0]);
    await run.mailbox.sendMessage({ from: 'lead', to: 'worker', body: 'flaky' });
    await waitFor('the retried turn', () => run.turns()[2]);
    await waitFor('the mail to be acknowledged', async () =>
      (await readTurnSession(run.home, run.runId, 'worker'))?.turns === 2 ? true : undefined,
    );
    expect((await run.mailbox.listUnread('worker')).messages).toEqual([]);
    expect(run.turns().map((turn) => turn.code)).toEqual([0, 7, 0]);
    run.controller.abort();
    expect((await done).code).toBe(0);
  }, 60_000);

  it('ends a turn on interrupt and keeps running', async () => {
    const run = await setUp();
    const runner = run.start('worker', {
      env: {
        ...process.env,
        ONE_SHOT_LOG: path.join(run.home, 'turns.jsonl'),
        ONE_SHOT_SLEEP_MS: '60000',
      },
    });
    const done = runner.run();
    await waitFor('the first turn to start', () => run.turns()[0]);
    expect(await runner.interrupt()).toBe(true);
    await waitFor('the waiting marker', () =>
      readWaitingMarker(run.runId, 'worker', createFileStore({ root: run.home })),
    );
    expect(run.output.some((line) => line.includes('interrupted'))).toBe(true);
    expect(await runner.interrupt()).toBe(false);
    run.controller.abort();
    expect((await done).code).toBe(0);
  }, 60_000);

  it("ends the lead's runner once every other member is terminated and no mail is left", async () => {
    const run = await setUp();
    const done = run.start('lead').run();
    await waitFor('the first turn', () => run.turns()[0]);
    await transitionMember(run.home, run.runId, 'worker', 'shutdown_approved', {
      store: createFileStore({ root: run.home }),
    });
    await transitionMember(run.home, run.runId, 'worker', 'terminated', {
      store: createFileStore({ root: run.home }),
    });
    const outcome = await done;
    expect(outcome).toEqual({
      code: 0,
      reason: 'every other member is terminated and no mail is left',
    });
  }, 60_000);

  it('stops at the turn bound and leaves the mail unread', async () => {
    const run = await setUp({ maxTurnsPerMember: 1 });
    const done = run.start().run();
    await waitFor('the first turn', () => run.turns()[0]);
    await run.mailbox.sendMessage({ from: 'lead', to: 'worker', body: 'one more' });
    const outcome = await done;
    expect(outcome.code).toBe(3);
    expect(outcome.reason).toContain('maxTurnsPerMember');
    expect(run.turns()).toHaveLength(1);
    expect((await run.mailbox.listUnread('worker')).messages).toHaveLength(1);
  }, 60_000);
});
