import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import type { TeamSpecInput } from '../schema/index.js';
import { readRunState } from '../state/index.js';
import { createTeamRuntime } from './create-team-runtime.js';
import type { DeliverInput, SpawnMemberInput, TeamHostV1 } from './team-host.js';

const run = promisify(execFile);
let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-runtime-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

interface RecordingHost extends TeamHostV1 {
  spawned: SpawnMemberInput[];
  delivered: DeliverInput[];
  stopped: string[];
  alive: Set<string>;
}

function recordingHost(
  overrides: Partial<TeamHostV1> & { withoutStop?: boolean } = {},
): RecordingHost {
  const host: RecordingHost = {
    specificationVersion: 'team-host-v1',
    hostId: 'recording',
    spawned: [],
    delivered: [],
    stopped: [],
    alive: new Set(),
    async spawnMember(input) {
      host.spawned.push(input);
      const sessionId = `s-${input.member.name}-${host.spawned.length}`;
      host.alive.add(sessionId);
      return { sessionId };
    },
    async deliver(input) {
      host.delivered.push(input);
      return 'delivered';
    },
    async isAlive(sessionId) {
      return host.alive.has(sessionId);
    },
    async stopMember(sessionId) {
      host.stopped.push(sessionId);
      host.alive.delete(sessionId);
    },
    ...overrides,
  };
  if (overrides.withoutStop) delete (host as Partial<TeamHostV1>).stopMember;
  return host;
}

const team = (
  workers: number,
  bounds: Record<string, number> = {},
  worktree = false,
): TeamSpecInput => ({
  id: 'crew',
  name: 'Crew',
  lead: 'lead',
  members: [
    { name: 'lead', role: 'lead', prompt: 'Lead the crew.' },
    ...Array.from({ length: workers }, (_, index) => ({
      name: `worker-${index + 1}`,
      role: 'implementer',
      prompt: 'Build things.',
      worktree,
    })),
  ],
  policy: { bounds },
});

describe('createTeamRuntime', () => {
  it('starts a run: the lead session is reused, members get their prompt and the team protocol', async () => {
    const host = recordingHost();
    const runtime = await createTeamRuntime({ home, host });
    const result = await runtime.startRun(team(2), { leadSessionId: 'lead-session' });
    expect(result.state.status).toBe('active');
    expect(result.spawned).toEqual(['worker-1', 'worker-2']);
    expect(host.spawned.map((input) => input.member.name)).toEqual(['worker-1', 'worker-2']);
    const first = host.spawned[0];
    expect(first?.member.prompt).toContain('Build things.');
    expect(first?.member.prompt).toContain(`run ${result.runId}`);
    expect(first?.member.prompt).toContain('team inbox');
    expect(first?.env).toEqual({
      TEAMKIT_HOME: home,
      TEAMKIT_RUN: result.runId,
      TEAMKIT_MEMBER: 'worker-1',
      TEAMKIT_TOKEN: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(first?.leadSessionId).toBe('lead-session');
    const lead = result.state.members.find((member) => member.isLead);
    expect(lead).toMatchObject({ sessionId: 'lead-session', status: 'running' });
  });

  it('refuses an invalid inline team with INVALID_TEAM and writes nothing', async () => {
    const runtime = await createTeamRuntime({ home, host: recordingHost() });
    const bad = { ...team(1), lead: 'nobody' };
    await expect(runtime.startRun(bad)).rejects.toSatisfy((error) =>
      isTeamkitError(error, 'INVALID_TEAM'),
    );
    expect(await readdir(home)).toEqual([]);
  });

  it('spawns within the parallel bound and starts waiting members when one goes idle', async () => {
    const host = recordingHost();
    const runtime = await createTeamRuntime({ home, host });
    const result = await runtime.startRun(team(3, { maxParallelMembers: 1 }));
    expect(result.spawned).toEqual(['lead', 'worker-1']);
    expect(result.waiting).toEqual(['worker-2', 'worker-3']);
    await runtime.onMemberIdle('s-worker-1-2');
    const state = await readRunState(home, result.runId);
    expect(state.members.map((member) => `${member.name}:${member.status}`)).toEqual([
      'lead:running',
      'worker-1:idle',
      'worker-2:running',
      'worker-3:pending',
    ]);
  });

  it('gives members started after a restart their own prompt, read back from the run', async () => {
    const host = recordingHost();
    const first = await createTeamRuntime({ home, host });
    const { runId } = await first.startRun(team(2, { maxParallelMembers: 1 }), {
      leadSessionId: 'lead-session',
    });
    expect(host.spawned.map((input) => input.member.name)).toEqual(['worker-1']);
    host.alive.add('lead-session');
    const second = await createTeamRuntime({ home, host });
    await second.onMemberIdle('s-worker-1-1');
    const late = host.spawned.find((input) => input.member.name === 'worker-2');
    expect(late?.member.prompt).toContain('Build things.');
    expect(late?.member.prompt).toContain(`run ${runId}`);
  });

  it('rolls back what it made when a spawn fails: sessions stopped, worktrees removed, run failed', async () => {
    const repo = path.join(home, 'repo');
    await run('git', ['init', '-q', '-b', 'main', repo]);
    await run('git', [
      '-C',
      repo,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t.invalid',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'init',
    ]);
    const host = recordingHost();
    const spawn = host.spawnMember.bind(host);
    host.spawnMember = async (input) => {
      if (input.member.name === 'worker-2') throw new Error('agent binary missing');
      return spawn(input);
    };
    const runtime = await createTeamRuntime({ home, host });
    await expect(
      runtime.startRun(team(2, {}, true), { repo, runId: '0b7f6a4e-4d3c-4b2a-9f1e-0d9c8b7a6f5e' }),
    ).rejects.toThrow('agent binary missing');
    const state = await readRunState(home, '0b7f6a4e-4d3c-4b2a-9f1e-0d9c8b7a6f5e');
    expect(state.status).toBe('failed');
    expect(state.statusReason).toContain('agent binary missing');
    expect(host.stopped.sort()).toEqual(['s-lead-1', 's-worker-1-2']);
    const worktrees = (await run('git', ['-C', repo, 'worktree', 'list', '--porcelain'])).stdout;
    expect(worktrees.match(/^worktree /gm)).toHaveLength(1);
  });

  it('releases mail whose delivery failed, and stops at the turn bound leaving mail unread', async () => {
    let failNext = true;
    const host = recordingHost({
      async deliver(input) {
        if (failNext) {
          failNext = false;
          throw new Error('session went away mid-delivery');
        }
        host.delivered.push(input);
        return 'delivered';
      },
    });
    const runtime = await createTeamRuntime({ home, host });
    const { runId } = await runtime.startRun(team(1, { maxTurnsPerMember: 1 }), {
      leadSessionId: 'lead-session',
    });
    const lead = runtime.member(runId, 'lead');
    const first = await lead.send({ to: 'worker-1', body: 'one' });
    const failed = await runtime.deliverPending(runId, 'worker-1');
    expect(failed.stoppedBecause).toContain('session went away');
    expect((await runtime.member(runId, 'worker-1').inbox()).map((m) => m.messageId)).toEqual([
      first.messageId,
    ]);

    const delivered = await runtime.deliverPending(runId, 'worker-1');
    expect(delivered.delivered).toEqual([first.messageId]);
    const second = await lead.send({ to: 'worker-1', body: 'two' });
    const bounded = await runtime.deliverPending(runId, 'worker-1');
    expect(bounded.delivered).toEqual([]);
    expect(bounded.stoppedBecause).toContain('maxTurnsPerMember');
    expect((await runtime.member(runId, 'worker-1').inbox()).map((m) => m.messageId)).toEqual([
      second.messageId,
    ]);
  });

  it('reports members it cannot stop when the host has no stopMember, and still ends the run', async () => {
    const host = recordingHost({ withoutStop: true });
    const runtime = await createTeamRuntime({ home, host });
    const { runId } = await runtime.startRun(team(1), { leadSessionId: 'lead-session' });
    const report = await runtime.stopRun(runId);
    expect(report.notStopped).toEqual([
      { member: 'worker-1', reason: expect.stringContaining('HOST_CAPABILITY_UNSUPPORTED') },
    ]);
    expect(report.status).toBe('deleted');
  });

  it('runs the shutdown protocol: request, approval, stop, terminated', async () => {
    const host = recordingHost();
    const runtime = await createTeamRuntime({ home, host });
    const { runId } = await runtime.startRun(team(1), { leadSessionId: 'lead-session' });
    await runtime.requestShutdown(runId, 'worker-1', 'done for today');
    expect(host.delivered.at(-1)?.messages[0]?.kind).toBe('shutdown_request');
    await runtime.member(runId, 'worker-1').approveShutdown();
    expect(await runtime.reconcile(runId)).toEqual(['worker-1']);
    const state = await readRunState(home, runId);
    expect(state.members.find((member) => member.name === 'worker-1')?.status).toBe('terminated');
    expect(host.stopped).toEqual(['s-worker-1-1']);
    const leadMail = await runtime.member(runId, 'lead').inbox();
    expect(leadMail.map((message) => message.kind)).toEqual(['shutdown_approved']);
  });
});
