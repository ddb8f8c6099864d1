import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import type { RunBounds } from '../schema/team-spec.js';
import { createFileStore } from '../storage/index.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { addMember, recordTurn, startMember } from './run-bounds.js';
import {
  createRunState,
  readRunState,
  transitionMember,
  transitionRun,
} from './run-state-store.js';
import { makeClock, makeSpec } from './test-support/temp-home.js';

async function boundOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    if (isTeamkitError(error, 'BOUND_EXCEEDED')) return error.details?.bound;
    throw error;
  }
  throw new Error('expected BOUND_EXCEEDED');
}

describe('run bounds', () => {
  let home: string;
  let cleanup: () => Promise<void>;
  const clock = makeClock();
  beforeEach(async () => {
    ({ dir: home, cleanup } = await makeTempFolder('teamkit-state-'));
  });
  afterEach(async () => cleanup());

  async function activeRun(workers: string[], bounds: Partial<RunBounds>) {
    const state = await createRunState(
      home,
      { spec: makeSpec(workers, bounds), teamSource: { scope: 'inline' }, hostId: 'test' },
      { store: createFileStore({ root: home }), now: clock.now },
    );
    await transitionRun(home, state.runId, 'active', {
      store: createFileStore({ root: home }),
      now: clock.now,
    });
    return state.runId;
  }

  it('refuses spawning past maxParallelMembers, also through a plain transition', async () => {
    const runId = await activeRun(['a', 'b', 'c'], { maxParallelMembers: 2 });
    await startMember(
      home,
      runId,
      'a',
      { sessionId: 's-a' },
      { store: createFileStore({ root: home }), now: clock.now },
    );
    await startMember(
      home,
      runId,
      'b',
      { sessionId: 's-b' },
      { store: createFileStore({ root: home }), now: clock.now },
    );
    expect(
      await boundOf(
        startMember(
          home,
          runId,
          'c',
          { sessionId: 's-c' },
          { store: createFileStore({ root: home }), now: clock.now },
        ),
      ),
    ).toBe('maxParallelMembers');
    expect(
      await boundOf(
        transitionMember(home, runId, 'c', 'running', { store: createFileStore({ root: home }) }),
      ),
    ).toBe('maxParallelMembers');
    await transitionMember(home, runId, 'a', 'idle', { store: createFileStore({ root: home }) });
    await startMember(
      home,
      runId,
      'c',
      { sessionId: 's-c' },
      { store: createFileStore({ root: home }), now: clock.now },
    );
    expect(
      (await readRunState(home, runId, { store: createFileStore({ root: home }) })).members.map(
        (m) => m.status,
      ),
    ).toEqual(['pending', 'idle', 'running', 'running']);
  });

  it('refuses adding members past maxMembers', async () => {
    const runId = await activeRun(['a'], { maxMembers: 3 });
    await addMember(
      home,
      runId,
      { name: 'b', role: 'helper' },
      { store: createFileStore({ root: home }), now: clock.now },
    );
    expect(
      await boundOf(
        addMember(
          home,
          runId,
          { name: 'c', role: 'helper' },
          { store: createFileStore({ root: home }), now: clock.now },
        ),
      ),
    ).toBe('maxMembers');
    expect(
      (await readRunState(home, runId, { store: createFileStore({ root: home }) })).members,
    ).toHaveLength(3);
  });

  it('refuses a turn past maxTurnsPerMember for that member only', async () => {
    const runId = await activeRun(['a', 'b'], { maxTurnsPerMember: 2 });
    await recordTurn(home, runId, 'a', { store: createFileStore({ root: home }), now: clock.now });
    await recordTurn(home, runId, 'a', { store: createFileStore({ root: home }), now: clock.now });
    expect(
      await boundOf(
        recordTurn(home, runId, 'a', { store: createFileStore({ root: home }), now: clock.now }),
      ),
    ).toBe('maxTurnsPerMember');
    await recordTurn(home, runId, 'b', { store: createFileStore({ root: home }), now: clock.now });
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(state.members.map((m) => m.turns)).toEqual([0, 2, 1]);
    expect(state.counters.turns).toBe(3);
  });

  it('refuses turns and spawns once the wall clock is past, but still lets the run shut down', async () => {
    const local = makeClock();
    const state = await createRunState(
      home,
      {
        spec: makeSpec(['a'], { maxWallClockMinutes: 1 }),
        teamSource: { scope: 'inline' },
        hostId: 'test',
      },
      { store: createFileStore({ root: home }), now: local.now },
    );
    await transitionRun(home, state.runId, 'active', { store: createFileStore({ root: home }) });
    local.advance(61_000);
    expect(
      await boundOf(
        recordTurn(home, state.runId, 'a', {
          store: createFileStore({ root: home }),
          now: local.now,
        }),
      ),
    ).toBe('maxWallClockMinutes');
    expect(
      await boundOf(
        startMember(
          home,
          state.runId,
          'a',
          { sessionId: 's' },
          { store: createFileStore({ root: home }), now: local.now },
        ),
      ),
    ).toBe('maxWallClockMinutes');
    await transitionRun(home, state.runId, 'deleting', {
      store: createFileStore({ root: home }),
      now: local.now,
    });
  });
});
