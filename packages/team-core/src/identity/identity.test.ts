import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sourceNodeArgs } from '@teamkit/repo-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { processSessionId, readProcessFacts } from '../processes/index.js';
import { createTeamRuntime } from '../runtime/create-team-runtime.js';
import type { SpawnMemberInput, TeamHostV1 } from '../runtime/team-host.js';
import { createRunState, readRunState, transitionRun, updateRunState } from '../state/index.js';
import { makeSpec } from '../state/test-support/temp-home.js';
import { createFileStore } from '../storage/index.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { authenticateMember, verifyMemberCredential } from './authenticate-member.js';
import { assertCallerIsUser, assertMayOperateOnRun } from './authorize-operation.js';
import { identifyCaller } from './identify-caller.js';
import { issueMemberCredential } from './issue-member-credential.js';
import { createMemberToken, hashMemberToken, memberTokenMatches } from './member-token.js';

const HAS_PROC = existsSync('/proc/self/environ');
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__');

let home: string;
let cleanup: () => Promise<void>;
let runId: string;

async function newRun(): Promise<string> {
  const state = await createRunState(
    home,
    {
      spec: makeSpec(['w1', 'w2']),
      teamSource: { scope: 'inline' },
      hostId: 'process',
    },
    { store: createFileStore({ root: home }) },
  );
  await transitionRun(home, state.runId, 'active', { store: createFileStore({ root: home }) });
  return state.runId;
}

beforeAll(async () => {
  ({ dir: home, cleanup } = await makeTempFolder('teamkit-state-'));
  runId = await newRun();
});
afterAll(async () => {
  stopMemberProcesses();
  await cleanup();
});

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isTeamkitError(error) ? error.code : error).toBe(code);
}

describe('member secrets', () => {
  it('are 32 random bytes whose sha256 hash alone is recorded', () => {
    const { token, hash } = createMemberToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashMemberToken(token));
    expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(memberTokenMatches(token, hash)).toBe(true);
    expect(memberTokenMatches(createMemberToken().token, hash)).toBe(false);
    expect(memberTokenMatches(token, 'sha256:short')).toBe(false);
    expect(createMemberToken().token).not.toBe(token);
  });

  it('authenticate only the member they were issued to, and only the latest one', async () => {
    const w1 = await issueMemberCredential(home, runId, 'w1', {
      store: createFileStore({ root: home }),
    });
    const w2 = await issueMemberCredential(home, runId, 'w2', {
      store: createFileStore({ root: home }),
    });
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(JSON.stringify(state)).not.toContain(w1);
    const client = await authenticateMember({
      store: createFileStore({ root: home }),
      home,
      runId,
      member: 'w1',
      token: w1,
    });
    expect(client.member).toBe('w1');
    // Each forgery of issue 19 item 5, through the library.
    await expectCode(
      authenticateMember({
        store: createFileStore({ root: home }),
        home,
        runId,
        member: 'lead',
        token: w1,
      }),
      'IDENTITY_MISMATCH',
    );
    await expectCode(
      authenticateMember({
        store: createFileStore({ root: home }),
        home,
        runId,
        member: 'w2',
        token: w1,
      }),
      'IDENTITY_MISMATCH',
    );
    await expectCode(
      authenticateMember({
        store: createFileStore({ root: home }),
        home,
        runId,
        member: 'w1',
        token: undefined,
      }),
      'IDENTITY_MISMATCH',
    );
    await expectCode(
      authenticateMember({
        store: createFileStore({ root: home }),
        home,
        runId,
        member: 'ghost',
        token: w1,
      }),
      'IDENTITY_MISMATCH',
    );
    // The lead of this run was never spawned, so it has no secret: nobody can claim it.
    await expectCode(
      authenticateMember({
        store: createFileStore({ root: home }),
        home,
        runId,
        member: 'lead',
        token: '',
      }),
      'IDENTITY_MISMATCH',
    );
    // A respawn replaces the secret: the old one stops working.
    const again = await issueMemberCredential(home, runId, 'w1', {
      store: createFileStore({ root: home }),
    });
    await expectCode(
      verifyMemberCredential({
        store: createFileStore({ root: home }),
        home,
        runId,
        member: 'w1',
        token: w1,
      }),
      'IDENTITY_MISMATCH',
    );
    await verifyMemberCredential({
      store: createFileStore({ root: home }),
      home,
      runId,
      member: 'w1',
      token: again,
    });
    await verifyMemberCredential({
      store: createFileStore({ root: home }),
      home,
      runId,
      member: 'w2',
      token: w2,
    });
  });
});

describe('who may run run-wide operations', () => {
  it('lets the user and the run’s lead, and refuses every other member', async () => {
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    const member = (name: string, run = runId) =>
      ({ kind: 'member', runId: run, member: name, via: 'token' }) as const;
    assertMayOperateOnRun({ kind: 'user' }, state, 'stop');
    assertMayOperateOnRun(member('lead'), state, 'stop');
    for (const operation of ['stop', 'resume', 'supervise', 'merge', 'shutdown-all'] as const) {
      expect(() => assertMayOperateOnRun(member('w2'), state, operation)).toThrow(
        expect.objectContaining({ code: 'PERMISSION_DENIED' }),
      );
    }
    expect(() =>
      assertMayOperateOnRun(member('lead', '00000000-0000-4000-8000-000000000000'), state, 'stop'),
    ).toThrow(expect.objectContaining({ code: 'IDENTITY_MISMATCH' }));
    assertCallerIsUser({ kind: 'user' }, 'prune worktrees');
    expect(() => assertCallerIsUser(member('lead'), 'prune worktrees')).toThrow(
      expect.objectContaining({ code: 'PERMISSION_DENIED' }),
    );
  });
});

describe('the runtime hands every spawned member a fresh secret', () => {
  it('puts TEAMKIT_TOKEN in the spawn environment and only its hash in state.json', async () => {
    const spawned: SpawnMemberInput[] = [];
    let next = 0;
    const host: TeamHostV1 = {
      specificationVersion: 'team-host-v1',
      hostId: 'recording',
      async spawnMember(input) {
        spawned.push(input);
        next += 1;
        return { sessionId: `s-${next}` };
      },
      deliver: async () => 'deferred',
      isAlive: async () => true,
    };
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host,
      resumeOnStart: false,
    });
    const started = await runtime.startRun({
      id: 'pair',
      name: 'pair',
      lead: 'lead',
      members: [
        { name: 'lead', role: 'lead', prompt: 'Lead.' },
        { name: 'w1', role: 'worker', prompt: 'Work.' },
      ],
    });
    expect(spawned.map((input) => input.member.name)).toEqual(['lead', 'w1']);
    for (const input of spawned) {
      const token = input.env.TEAMKIT_TOKEN ?? '';
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      const client = await authenticateMember({
        store: createFileStore({ root: home }),
        home,
        runId: started.runId,
        member: input.member.name,
        token,
      });
      expect(client.member).toBe(input.member.name);
    }
    const text = JSON.stringify(
      await readRunState(home, started.runId, { store: createFileStore({ root: home }) }),
    );
    for (const input of spawned) expect(text).not.toContain(input.env.TEAMKIT_TOKEN);
    expect(spawned[0]?.env.TEAMKIT_TOKEN).not.toBe(spawned[1]?.env.TEAMKIT_TOKEN);
  });
});

describe.skipIf(!HAS_PROC)('identifyCaller: who a process is', () => {
  let member: MemberProcess;
  let token: string;
  let other: string;
  const ask = async (env: Record<string, string>, where = home) => {
    const count = member.lines.length;
    member.child.stdin?.write(
      `${JSON.stringify({ env: { PATH: process.env.PATH ?? '', ...env }, home: where })}\n`,
    );
    const deadline = Date.now() + 20_000;
    while (member.lines.length === count) {
      if (Date.now() > deadline) throw new Error(`no answer: ${member.stderr.join('')}`);
      await delay(20);
    }
    return JSON.parse(member.lines.at(-1) ?? '') as Record<string, unknown>;
  };

  beforeAll(async () => {
    other = await mkdtemp(path.join(os.tmpdir(), 'teamkit-other-home-'));
  });
  afterAll(async () => rm(other, { recursive: true, force: true }));

  it('knows a member by its secret, and by its recorded process when the variables are gone', async () => {
    token = await issueMemberCredential(home, runId, 'w1', {
      store: createFileStore({ root: home }),
    });
    const w2 = await issueMemberCredential(home, runId, 'w2', {
      store: createFileStore({ root: home }),
    });
    const variables = {
      TEAMKIT_HOME: home,
      TEAMKIT_RUN: runId,
      TEAMKIT_MEMBER: 'w1',
      TEAMKIT_TOKEN: token,
    };
    member = startMemberProcess(path.join(fixtures, 'member-process.mjs'), variables);
    await member.ready;
    const pid = member.child.pid as number;
    const startedAt = readProcessFacts(pid)?.startedAt as number;
    await updateRunState(
      home,
      runId,
      (draft) => {
        const w1 = draft.members.find((entry) => entry.name === 'w1');
        if (w1 !== undefined) w1.sessionId = processSessionId(pid, startedAt);
        return draft;
      },
      { store: createFileStore({ root: home }) },
    );

    expect(await ask(variables)).toEqual({ kind: 'member', runId, member: 'w1', via: 'token' });
    // Variables removed: still w1, never the user.
    expect(await ask({})).toEqual({ kind: 'member', runId, member: 'w1', via: 'ancestry' });
    // Nor can it slip into another home, or name the lead, or use another member's secret.
    expect(await ask({}, other)).toEqual({ error: 'IDENTITY_MISMATCH' });
    expect(await ask({ ...variables, TEAMKIT_MEMBER: 'lead' })).toEqual({
      error: 'IDENTITY_MISMATCH',
    });
    expect(await ask({ ...variables, TEAMKIT_TOKEN: '' })).toEqual({ error: 'IDENTITY_MISMATCH' });
    expect(await ask({ ...variables, TEAMKIT_MEMBER: 'w2', TEAMKIT_TOKEN: w2 })).toEqual({
      error: 'IDENTITY_MISMATCH',
    });
    expect(await ask({ TEAMKIT_TOKEN: token })).toEqual({ error: 'IDENTITY_MISMATCH' });
  }, 60_000);

  it('is the user for a process no member started, and once the record names another process', async () => {
    expect(await identifyCaller({ store: createFileStore({ root: home }), home, env: {} })).toEqual(
      { kind: 'user' },
    );
    await expectCode(
      identifyCaller({ store: createFileStore({ root: home }), home, env: { TEAMKIT_TOKEN: 'x' } }),
      'IDENTITY_MISMATCH',
    );
    await updateRunState(
      home,
      runId,
      (draft) => {
        const w1 = draft.members.find((entry) => entry.name === 'w1');
        if (w1 !== undefined) w1.sessionId = processSessionId(member.child.pid as number, 1);
        return draft;
      },
      { store: createFileStore({ root: home }) },
    );
    expect(await ask({})).toEqual({ kind: 'user' });
  }, 60_000);
});

/** A fixture process started with exactly `env` (plus PATH), its stdin open. */
interface MemberProcess {
  child: ChildProcess;
  lines: string[];
  stderr: string[];
  ready: Promise<void>;
}

const started = new Set<ChildProcess>();

function startMemberProcess(script: string, env: Record<string, string>): MemberProcess {
  const child = spawn(process.execPath, [...sourceNodeArgs(), script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  started.add(child);
  const lines: string[] = [];
  const stderr: string[] = [];
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (line === 'ready') resolve();
      else lines.push(line);
    });
  });
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return { child, lines, stderr, ready };
}

function stopMemberProcesses(): void {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  started.clear();
}
