import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type NatsServerProcess, startNatsServer } from '@teamkit/test-harness';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dumpLogsOnFailure } from '../../test-support/failure-evidence.js';
import { type CliResult, createTempHome, runCli } from '../../test-support/run-cli.js';
import {
  createRepoWithClone,
  natsServerMissing,
  waitFor,
} from '../../test-support/shared-store.js';
import { writeTestTeam } from '../../test-support/test-team.js';

// `team run resume` in a run two machines share: each machine probes its own members'
// processes and judges the other machine's members by their heartbeats.
const missing = natsServerMissing();
const IDLE_AGENT = 'sleep 600';
// Long enough for one machine's resume to bring its supervisor back before the other
// machine's supervisor gives up on the heartbeats it missed meanwhile.
const STALE_MS = 15_000;

let server: NatsServerProcess;
let folder: string;
let cleanup: () => Promise<void>;
let homeA: string;
let homeB: string;
let runId: string;
const started: number[] = [];

const shared = () => ({ TEAMKIT_STORE: server.url, TEAMKIT_HEARTBEAT_STALE_MS: String(STALE_MS) });
const team = (home: string, args: string[]) =>
  runCli([...args, '--home', home, '--json'], shared(), { timeoutMs: 90_000 });

/** What a command printed, and whether it was killed for hanging, for a failure's message. */
const said = (result: CliResult) =>
  `${result.timedOut ? 'killed after its timeout; ' : ''}exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;

interface StatusMember {
  name: string;
  status: string;
  sessionId?: string;
}

interface ResumedMember {
  member: string;
  liveness: string;
}

async function membersSeenFrom(home: string): Promise<StatusMember[]> {
  const shown = await team(home, ['run', 'status', runId]);
  expect(shown.code, said(shown)).toBe(0);
  return (shown.json().status as { members: StatusMember[] }).members;
}

const pidOf = (sessionId: string | undefined) => Number(/^proc-(\d+)-/.exec(sessionId ?? '')?.[1]);

function supervisorPid(home: string): number {
  return JSON.parse(readFileSync(path.join(home, 'runtime', runId, 'supervisor.json'), 'utf8'))
    .pid as number;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function killSupervisor(home: string): Promise<void> {
  const pid = supervisorPid(home);
  process.kill(pid, 'SIGKILL');
  await waitFor(`the supervisor of ${path.basename(home)} to end`, async () =>
    processAlive(pid) ? undefined : true,
  );
}

async function resume(home: string): Promise<{ members: ResumedMember[]; statusAfter: string }> {
  const resumed = await team(home, ['run', 'resume', runId]);
  expect(resumed.code, said(resumed)).toBe(0);
  return resumed.json().report as { members: ResumedMember[]; statusAfter: string };
}

const livenessOf = (report: { members: ResumedMember[] }) =>
  Object.fromEntries(report.members.map((entry) => [entry.member, entry.liveness]));

describe.skipIf(missing !== undefined)('team run resume in a run shared by two machines', () => {
  beforeAll(async () => {
    server = await startNatsServer();
    ({ home: folder, cleanup } = await createTempHome());
    homeA = path.join(folder, 'machine-a');
    homeB = path.join(folder, 'machine-b');
    await mkdir(homeA);
    await mkdir(homeB);
    const { repo, clone } = await createRepoWithClone(folder);
    await writeTestTeam(homeA, {
      id: 'trio',
      lead: 'lead',
      members: ['lead', 'w1', 'w2'],
      worktrees: ['w2'],
    });
    const start = await team(homeA, [
      'run',
      'start',
      'trio',
      '--repo',
      repo,
      '--agent-cmd',
      IDLE_AGENT,
      '--elsewhere',
      'w2',
    ]);
    expect(start.code, said(start)).toBe(0);
    runId = start.json().runId as string;
    const joined = await team(homeB, [
      'run',
      'join',
      runId,
      'w2',
      '--repo',
      clone,
      '--agent-cmd',
      IDLE_AGENT,
    ]);
    expect(joined.code, said(joined)).toBe(0);
    for (const member of await membersSeenFrom(homeA)) started.push(pidOf(member.sessionId));
  }, 180_000);

  // A hang or a crash leaves its evidence: the supervisors' logs, before the homes go.
  beforeEach(() => dumpLogsOnFailure(() => [homeA, homeB]));

  afterAll(async () => {
    if (runId !== undefined) {
      await team(homeA, ['run', 'stop', runId, '--force']);
      await team(homeB, ['run', 'stop', runId, '--force']);
    }
    for (const pid of started) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await server?.close();
    await cleanup?.();
  }, 180_000);

  it("keeps A's members when B resumes after A's supervisor died and came back", async () => {
    const before = await membersSeenFrom(homeA);
    await killSupervisor(homeA);
    // A's own resume: its members by their processes, B's member by B's heartbeats.
    expect(livenessOf(await resume(homeA))).toEqual({ lead: 'alive', w1: 'alive', w2: 'alive' });
    // B resumes too (as after a restart of B's own supervisor): A's members beat again.
    await killSupervisor(homeB);
    expect(livenessOf(await resume(homeB))).toEqual({ lead: 'alive', w1: 'alive', w2: 'alive' });
    const after = await membersSeenFrom(homeB);
    expect(after.map((member) => [member.name, member.status])).toEqual([
      ['lead', 'running'],
      ['w1', 'running'],
      ['w2', 'running'],
    ]);
    // Nobody was started again, on either machine.
    expect(after.map((member) => member.sessionId)).toEqual(before.map((m) => m.sessionId));
    // A stale period later, with both supervisors beating again, still nobody is errored.
    await delay(STALE_MS + 2_000);
    expect((await membersSeenFrom(homeA)).map((member) => member.status)).toEqual([
      'running',
      'running',
      'running',
    ]);
  }, 180_000);

  it("marks A's members errored on B's resume once A's heartbeats stop, and never starts them on B", async () => {
    const before = await membersSeenFrom(homeB);
    const w1Pid = pidOf(before.find((member) => member.name === 'w1')?.sessionId);
    await killSupervisor(homeA);
    await killSupervisor(homeB);
    const resumed = await resume(homeB);
    expect(livenessOf(resumed)).toEqual({ lead: 'dead', w1: 'dead', w2: 'alive' });
    // The lead's session is gone, as on one machine: the run is orphaned.
    expect(resumed.statusAfter).toBe('orphaned');
    const after = await membersSeenFrom(homeB);
    expect(after.map((member) => [member.name, member.status])).toEqual([
      ['lead', 'errored'],
      ['w1', 'errored'],
      ['w2', 'running'],
    ]);
    // Their sessions are still A's: B did not start them, and never signalled A's process.
    expect(after.map((member) => member.sessionId)).toEqual(before.map((m) => m.sessionId));
    expect(processAlive(w1Pid)).toBe(true);
  }, 180_000);
});
