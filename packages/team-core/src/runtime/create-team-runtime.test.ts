import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { readRunState } from '../state/index.js';
import { acquireLock, createFileStore, runKeys } from '../storage/index.js';
import { createTeamRuntime } from './create-team-runtime.js';
import {
  crewTeam,
  git,
  makeRepo,
  makeRuntimeHome,
  recordingHost,
  writeGlobalSettings,
} from './test-support/recording-host.js';

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await makeRuntimeHome());
});
afterEach(async () => cleanup());

const VOCABULARY = {
  readMail: '`mail read`',
  sendMessage: '`mail send`',
  listReadyTasks: '`tasks ready`',
  claimTask: '`tasks claim`',
  completeTask: '`tasks done`',
  submitForReview: '`tasks review`',
  createTask: '`tasks new`',
};

describe('createTeamRuntime', () => {
  it('starts a run: the lead session is reused, members get their prompt and the adapter’s protocol words', async () => {
    const host = recordingHost();
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host,
      vocabulary: VOCABULARY,
    });
    const result = await runtime.startRun(crewTeam(2), { leadSessionId: 'lead-session' });
    expect(result.state.status).toBe('active');
    expect(result.spawned).toEqual(['worker-1', 'worker-2']);
    const first = host.spawned[0];
    expect(first?.member.prompt).toContain('Build things.');
    expect(first?.member.prompt).toContain(`run ${result.runId}`);
    expect(first?.member.prompt).toContain('Read your mail with `mail read`.');
    expect(first?.env).toEqual({
      TEAMKIT_HOME: home,
      TEAMKIT_RUN: result.runId,
      TEAMKIT_MEMBER: 'worker-1',
      TEAMKIT_TOKEN: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(first?.leadSessionId).toBe('lead-session');
    expect(result.state.members.find((member) => member.isLead)).toMatchObject({
      sessionId: 'lead-session',
      status: 'running',
    });
  });

  it('words the protocol for the member client when the adapter gives no vocabulary', async () => {
    const host = recordingHost();
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    await runtime.startRun(crewTeam(1), { leadSessionId: 'lead-session' });
    expect(host.spawned[0]?.member.prompt).toContain('Read your mail with `inbox()`');
  });

  it('refuses an invalid inline team with INVALID_TEAM and writes nothing', async () => {
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
    });
    const bad = { ...crewTeam(1), lead: 'nobody' };
    await expect(runtime.startRun(bad)).rejects.toSatisfy((error) =>
      isTeamkitError(error, 'INVALID_TEAM'),
    );
    expect(await readdir(home)).toEqual([]);
  });

  it('rolls back what it made when a spawn fails: sessions stopped, worktrees and branches removed, run failed', async () => {
    const repo = await makeRepo(home);
    const host = recordingHost();
    const spawn = host.spawnMember.bind(host);
    host.spawnMember = async (input) => {
      if (input.member.name === 'worker-2') throw new Error('agent binary missing');
      return spawn(input);
    };
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const runId = '0b7f6a4e-4d3c-4b2a-9f1e-0d9c8b7a6f5e';
    await expect(runtime.startRun(crewTeam(2, {}, true), { repo, runId })).rejects.toThrow(
      'agent binary missing',
    );
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(state.status).toBe('failed');
    expect(state.statusReason).toContain('agent binary missing');
    expect(host.stopped.sort()).toEqual(['s-lead-1', 's-worker-1-2']);
    const worktrees = (await git(repo, ['worktree', 'list', '--porcelain'])).stdout;
    expect(worktrees.match(/^worktree /gm)).toHaveLength(1);
    expect((await git(repo, ['branch', '--list', 'teamkit/*'])).stdout.trim()).toBe('');
  });

  it('runs the shutdown protocol: request, approval, stop, terminated', async () => {
    const host = recordingHost();
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const { runId } = await runtime.startRun(crewTeam(1), { leadSessionId: 'lead-session' });
    await runtime.requestShutdown(runId, 'worker-1', 'done for today');
    expect(host.delivered.at(-1)?.messages[0]?.kind).toBe('shutdown_request');
    await runtime.member(runId, 'worker-1').approveShutdown();
    expect(await runtime.reconcile(runId)).toEqual(['worker-1']);
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(state.members.find((member) => member.name === 'worker-1')?.status).toBe('terminated');
    expect(host.stopped).toEqual(['s-worker-1-1']);
    const leadMail = await runtime.member(runId, 'lead').inbox();
    expect(leadMail.map((message) => message.kind)).toEqual(['shutdown_approved']);
  });

  it('keeps an approved member whose session the host cannot stop, and logs why', async () => {
    const host = recordingHost({ without: ['stopMember'] });
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const { runId } = await runtime.startRun(crewTeam(1), { leadSessionId: 'lead-session' });
    await runtime.requestShutdown(runId, 'worker-1');
    await runtime.member(runId, 'worker-1').approveShutdown();
    expect(await runtime.reconcile(runId)).toEqual([]);
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(state.members.find((member) => member.name === 'worker-1')?.status).toBe(
      'shutdown_approved',
    );
    const events = (await runtime.status(runId)).recentEvents;
    expect(events.at(-1)).toMatchObject({
      type: 'member.stop_failed',
      ids: ['worker-1'],
      data: { code: 'HOST_CAPABILITY_UNSUPPORTED' },
    });
  });

  it('interrupts a member through the host, and refuses a host without interrupt with a typed error', async () => {
    const host = recordingHost();
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const { runId } = await runtime.startRun(crewTeam(1), { leadSessionId: 'lead-session' });
    expect(await runtime.interruptMember(runId, 'worker-1')).toBe('interrupted');
    expect(host.interrupted).toEqual(['s-worker-1-1']);

    const bare = recordingHost({ without: ['interrupt'] });
    const other = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: bare,
      resumeOnStart: false,
    });
    const error = await other.interruptMember(runId, 'worker-1').catch((caught) => caught);
    expect(isTeamkitError(error, 'HOST_CAPABILITY_UNSUPPORTED')).toBe(true);
    expect(error.details).toMatchObject({ hostId: 'recording', capability: 'interrupt' });
  });

  it('reports a tmux layout it could not open for a host without attachCommand, with the typed code', async () => {
    const host = recordingHost({ without: ['attachCommand'] });
    const runner = {
      run: async () => {
        throw new Error('no tmux call is expected');
      },
    } as never;
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host,
      tmux: { runner },
    });
    const result = await runtime.startRun(crewTeam(1), { leadSessionId: 'lead-session' });
    expect(result.layout).toMatchObject({
      status: 'skipped',
      code: 'HOST_CAPABILITY_UNSUPPORTED',
      reason: expect.stringContaining('attachCommand'),
    });
  });

  it('waits for locks as long as the lock.timeoutMs setting says (setting: lock.timeoutMs)', async () => {
    await writeGlobalSettings(home, { 'lock.timeoutMs': 300 });
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
    });
    const { runId } = await runtime.startRun(crewTeam(1), { leadSessionId: 'lead-session' });
    // A send takes the recipient's inbox lock, through the store the runtime made.
    const held = await acquireLock(path.join(home, runKeys(runId).inbox('worker-1')));
    try {
      const lead = await runtime.lead(runId);
      const error = await lead
        .send({ to: 'worker-1', body: 'waits for the lock' })
        .catch((caught) => caught);
      expect(isTeamkitError(error, 'LOCK_TIMEOUT')).toBe(true);
      expect(error.details).toMatchObject({ timeoutMs: 300 });
    } finally {
      await held.release();
    }
  });
});
