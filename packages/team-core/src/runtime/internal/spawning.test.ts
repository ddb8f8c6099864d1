import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRunState, updateRunState } from '../../state/index.js';
import { createFileStore } from '../../storage/index.js';
import { createTeamRuntime } from '../create-team-runtime.js';
import { crewTeam, makeRuntimeHome, recordingHost } from '../test-support/recording-host.js';

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await makeRuntimeHome());
});
afterEach(async () => cleanup());

const statuses = async (runId: string) =>
  (await readRunState(home, runId, { store: createFileStore({ root: home }) })).members.map(
    (member) => `${member.name}:${member.status}`,
  );

describe('spawning', () => {
  it('spawns within the parallel bound and starts waiting members when one goes idle', async () => {
    const host = recordingHost();
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const result = await runtime.startRun(crewTeam(3, { maxParallelMembers: 1 }));
    expect(result.spawned).toEqual(['lead', 'worker-1']);
    expect(result.waiting).toEqual(['worker-2', 'worker-3']);
    await runtime.onMemberIdle('s-worker-1-2');
    expect(await statuses(result.runId)).toEqual([
      'lead:running',
      'worker-1:idle',
      'worker-2:running',
      'worker-3:pending',
    ]);
  });

  it('never starts one pending member twice when callers race', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const host = recordingHost();
    const spawn = host.spawnMember.bind(host);
    host.spawnMember = async (input) => {
      await gate;
      return spawn(input);
    };
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const runId = '5d0c1a52-3f1e-4c8a-9a55-1f2e3d4c5b6a';
    const starting = runtime.startRun(crewTeam(3), { runId, leadSessionId: 'lead-session' });
    // startRun is blocked in the first spawn; more spawners for the same run queue behind it.
    while (
      !(await readRunState(home, runId, { store: createFileStore({ root: home }) }).catch(
        () => undefined,
      ))
    ) {
      await delay(5);
    }
    const racing = [1, 2, 3].map(() => runtime.spawnWaitingMembers(runId));
    release();
    const [started, ...others] = await Promise.all([starting, ...racing]);
    expect([started.spawned, ...others].flat().sort()).toEqual([
      'worker-1',
      'worker-2',
      'worker-3',
    ]);
    expect(host.spawned.map((input) => input.member.name)).toEqual([
      'worker-1',
      'worker-2',
      'worker-3',
    ]);
  });

  it('gives members started after a restart their own prompt, read back from the run', async () => {
    const host = recordingHost();
    const first = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const { runId } = await first.startRun(crewTeam(2, { maxParallelMembers: 1 }), {
      leadSessionId: 'lead-session',
    });
    expect(host.spawned.map((input) => input.member.name)).toEqual(['worker-1']);
    host.alive.add('lead-session');
    const second = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    await second.onMemberIdle('s-worker-1-1');
    const late = host.spawned.find((input) => input.member.name === 'worker-2');
    expect(late?.member.prompt).toContain('Build things.');
    expect(late?.member.prompt).toContain(`run ${runId}`);
  });

  it('applies an idle report that came before the spawn returned', async () => {
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
    });
    const host = runtime.host as ReturnType<typeof recordingHost>;
    const spawn = host.spawnMember.bind(host);
    host.spawnMember = async (input) => {
      const result = await spawn(input);
      await runtime.onMemberIdle(result.sessionId);
      return result;
    };
    const { runId } = await runtime.startRun(crewTeam(1), { leadSessionId: 'lead-session' });
    expect(await statuses(runId)).toEqual(['lead:running', 'worker-1:idle']);
  });

  it.each([
    ['stops', undefined],
    ['logs a session it cannot stop from', 'stopMember'],
  ] as const)(
    '%s a session whose start lost the parallel bound to another process',
    async (_, without) => {
      const host = recordingHost(without === undefined ? {} : { without: [without] });
      const runtime = await createTeamRuntime({
        store: createFileStore({ root: home }),
        home,
        host,
      });
      const { runId } = await runtime.startRun(crewTeam(2, { maxParallelMembers: 1 }), {
        leadSessionId: 'lead-session',
      });
      const setWorker1 = (status: 'idle' | 'running') =>
        updateRunState(
          home,
          runId,
          (draft) => {
            const worker = draft.members.find((member) => member.name === 'worker-1');
            if (worker !== undefined) worker.status = status;
            return draft;
          },
          { store: createFileStore({ root: home }) },
        );
      await setWorker1('idle');
      const spawn = host.spawnMember.bind(host);
      host.spawnMember = async (input) => {
        const result = await spawn(input);
        // Meanwhile another process wakes worker-1 up and takes the only slot.
        await setWorker1('running');
        return result;
      };
      expect(await runtime.spawnWaitingMembers(runId)).toEqual([]);
      expect(await statuses(runId)).toEqual([
        'lead:running',
        'worker-1:running',
        'worker-2:pending',
      ]);
      if (without === undefined) {
        expect(host.stopped).toEqual(['s-worker-2-2']);
      } else {
        const events = (await runtime.status(runId)).recentEvents;
        expect(events.at(-1)).toMatchObject({
          type: 'member.stop_failed',
          ids: ['worker-2'],
          data: { sessionId: 's-worker-2-2', code: 'HOST_CAPABILITY_UNSUPPORTED' },
        });
      }
    },
  );
});
