import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type NatsServerProcess, startNatsServer } from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempHome, runCli } from '../../test-support/run-cli.js';
import {
  createRepoWithClone,
  natsServerMissing,
  waitFor,
} from '../../test-support/shared-store.js';
import { writeTestTeam } from '../../test-support/test-team.js';

// Two "machines" on one box: two Teamkit homes, each with its own clone of the repository,
// sharing one run through one private nats-server.
const missing = natsServerMissing();
const IDLE_AGENT = 'sleep 600';
// Long enough that a supervisor stalled by a busy machine is not judged gone.
const STALE_MS = 10_000;

let server: NatsServerProcess;
let folder: string;
let cleanup: () => Promise<void>;
let homeA: string;
let homeB: string;
let runId: string;
const started: number[] = [];

const shared = () => ({ TEAMKIT_STORE: server.url, TEAMKIT_HEARTBEAT_STALE_MS: String(STALE_MS) });
const team = (home: string, args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--home', home, '--json'], { ...shared(), ...env }, { timeoutMs: 60_000 });

interface StatusMember {
  name: string;
  status: string;
  sessionId?: string;
  worktreePath?: string;
}

async function statusFrom(home: string): Promise<{ members: StatusMember[]; status: string }> {
  const shown = await team(home, ['run', 'status', runId]);
  expect(shown.code, shown.stdout + shown.stderr).toBe(0);
  return shown.json().status as { members: StatusMember[]; status: string };
}

const pidOf = (sessionId: string | undefined) => Number(/^proc-(\d+)-/.exec(sessionId ?? '')?.[1]);

/** A member's `TEAMKIT_*` variables, from its process's start environment (as its host set them). */
function memberEnv(sessionId: string | undefined): Record<string, string> {
  const pid = pidOf(sessionId);
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((entry) => entry.startsWith('TEAMKIT_'))
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

function supervisorPid(home: string): number {
  return JSON.parse(readFileSync(path.join(home, 'runtime', runId, 'supervisor.json'), 'utf8'))
    .pid as number;
}

describe.skipIf(missing !== undefined)('a run shared by two machines through NATS', () => {
  beforeAll(async () => {
    server = await startNatsServer();
    ({ home: folder, cleanup } = await createTempHome());
    homeA = path.join(folder, 'machine-a');
    homeB = path.join(folder, 'machine-b');
    await mkdir(homeA);
    await mkdir(homeB);
    const { repo, clone } = await createRepoWithClone(folder);
    await writeTestTeam(homeA, {
      id: 'pair',
      lead: 'lead',
      members: ['lead', 'w1'],
      worktrees: ['w1'],
    });
    const start = await team(homeA, [
      'run',
      'start',
      'pair',
      '--repo',
      repo,
      '--agent-cmd',
      IDLE_AGENT,
      '--elsewhere',
      'w1',
    ]);
    expect(start.code, start.stdout + start.stderr).toBe(0);
    runId = start.json().runId as string;
    expect(start.json().spawned).toEqual(['lead']);
    expect(start.json().waiting).toEqual(['w1']);
    const joined = await team(homeB, [
      'run',
      'join',
      runId.slice(0, 8),
      'w1',
      '--repo',
      clone,
      '--agent-cmd',
      IDLE_AGENT,
    ]);
    expect(joined.code, joined.stdout + joined.stderr).toBe(0);
    expect(joined.json().spawned).toEqual(['w1']);
    for (const member of (await statusFrom(homeA)).members) started.push(pidOf(member.sessionId));
  }, 180_000);

  afterAll(async () => {
    if (runId !== undefined) await team(homeA, ['run', 'stop', runId, '--force']);
    for (const pid of started) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await server?.close();
    await cleanup?.();
  }, 120_000);

  it('keeps the run state off both home folders and shows the whole run from either machine', async () => {
    expect(existsSync(path.join(homeA, 'runtime', runId, 'state.json'))).toBe(false);
    expect(existsSync(path.join(homeB, 'runtime', runId, 'state.json'))).toBe(false);
    const fromA = await statusFrom(homeA);
    const fromB = await statusFrom(homeB);
    expect(fromB.members.map((member) => [member.name, member.status])).toEqual([
      ['lead', 'running'],
      ['w1', 'running'],
    ]);
    expect(fromA.members).toEqual(fromB.members);
    // w1's worktree is machine B's own checkout, under B's home.
    const w1 = fromB.members.find((member) => member.name === 'w1');
    expect(w1?.worktreePath?.startsWith(path.join(homeB, 'worktrees', runId))).toBe(true);
    expect(existsSync(w1?.worktreePath ?? '')).toBe(true);
    const listed = await team(homeB, ['run', 'list']);
    expect(JSON.stringify(listed.json())).toContain(runId);
  });

  it('lets the member on B claim a task and message the lead on A, and both machines see it', async () => {
    const created = await team(homeA, ['task', 'create', runId, 'write the notes']);
    expect(created.code, created.stdout + created.stderr).toBe(0);
    const id = (created.json().task as { id: string }).id;
    const { members } = await statusFrom(homeB);
    const w1 = memberEnv(members.find((member) => member.name === 'w1')?.sessionId);
    expect(w1.TEAMKIT_HOME).toBe(homeB);
    const claimed = await runCli(['task', 'claim', id, '--json'], w1);
    expect(claimed.code, claimed.stdout + claimed.stderr).toBe(0);
    const sent = await runCli(['send', '--to', 'lead', 'claimed it from machine B', '--json'], w1);
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);

    const lead = memberEnv(members.find((member) => member.name === 'lead')?.sessionId);
    expect(lead.TEAMKIT_HOME).toBe(homeA);
    const inbox = await runCli(['inbox', '--json'], lead);
    expect(inbox.code, inbox.stdout + inbox.stderr).toBe(0);
    expect(inbox.json().messages).toEqual([
      expect.objectContaining({ from: 'w1', to: 'lead', body: 'claimed it from machine B' }),
    ]);
    const board = await team(homeB, ['board', runId]);
    const columns = board.json().columns as {
      title: string;
      tasks: { id: string; owner?: string }[];
    }[];
    expect(columns.find((column) => column.title === 'in progress')?.tasks).toEqual([
      expect.objectContaining({ id, owner: 'w1' }),
    ]);
  });

  it('refuses to run a member on a second machine', async () => {
    const homeC = path.join(folder, 'machine-c');
    await mkdir(homeC);
    const again = await team(homeC, [
      'run',
      'join',
      runId,
      'w1',
      '--repo',
      folder,
      '--agent-cmd',
      IDLE_AGENT,
    ]);
    expect(again.code).not.toBe(0);
    expect(again.json().error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(JSON.stringify(again.json())).toContain('cannot join here');
  });

  it('judges the member on B by its heartbeat: alive while B beats, errored (tasks released) once it stops', async () => {
    // Several stale periods with B's supervisor beating: A never gives up on w1.
    await delay(2 * STALE_MS);
    expect((await statusFrom(homeA)).members.map((member) => member.status)).toEqual([
      'running',
      'running',
    ]);
    // Machine B goes quiet: its supervisor stops, w1's process itself keeps running there.
    process.kill(supervisorPid(homeB), 'SIGKILL');
    const errored = await waitFor('A to mark w1 errored', async () => {
      const member = (await statusFrom(homeA)).members.find((entry) => entry.name === 'w1');
      return member?.status === 'errored' ? member : undefined;
    });
    expect(errored.status).toBe('errored');
    const tasks = await team(homeA, ['task', 'list', runId]);
    expect(tasks.json().tasks).toEqual([expect.objectContaining({ status: 'pending' })]);
    expect((tasks.json().tasks as { owner?: string }[])[0]?.owner).toBeUndefined();
  }, 180_000);

  it('stops the member on B when the run is stopped from A', async () => {
    const { repo, clone } = {
      repo: path.join(folder, 'repo'),
      clone: path.join(folder, 'repo-clone'),
    };
    const start = await team(homeA, [
      'run',
      'start',
      'pair',
      '--repo',
      repo,
      '--agent-cmd',
      IDLE_AGENT,
      '--elsewhere',
      'w1',
    ]);
    expect(start.code, start.stdout + start.stderr).toBe(0);
    const second = start.json().runId as string;
    const joined = await team(homeB, [
      'run',
      'join',
      second,
      'w1',
      '--repo',
      clone,
      '--agent-cmd',
      IDLE_AGENT,
    ]);
    expect(joined.code, joined.stdout + joined.stderr).toBe(0);
    const shown = await team(homeA, ['run', 'status', second]);
    const members = (shown.json().status as { members: StatusMember[] }).members;
    for (const member of members) started.push(pidOf(member.sessionId));
    const w1 = pidOf(members.find((member) => member.name === 'w1')?.sessionId);
    const stopped = await team(homeA, ['run', 'stop', second]);
    expect(stopped.code, stopped.stdout + stopped.stderr).toBe(0);
    // A does not signal B's process; B's supervisor stops it once it sees the run stopped.
    expect(JSON.stringify(stopped.json().notSignalled)).toContain('w1');
    await waitFor('w1 on B to end', async () => {
      try {
        process.kill(w1, 0);
        return undefined;
      } catch {
        return true;
      }
    });
  }, 180_000);
});
