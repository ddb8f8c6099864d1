import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { MEMBER_STATUSES, RUN_STATUSES } from '../schema/runtime-state.js';
import { createFileStore } from '../storage/index.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import {
  createRunState,
  readRunState,
  transitionMember,
  transitionRun,
} from './run-state-store.js';
import {
  canTransitionMember,
  canTransitionRun,
  MEMBER_TRANSITIONS,
  RUN_TRANSITIONS,
} from './status-machines.js';
import { makeSpec } from './test-support/temp-home.js';

describe('status machines as tables', () => {
  it('matches the documented run machine exactly', () => {
    expect(RUN_TRANSITIONS).toEqual({
      creating: ['active', 'failed', 'orphaned'],
      active: ['shutdown_requested', 'completed', 'deleting', 'orphaned'],
      shutdown_requested: ['deleting', 'active', 'completed', 'orphaned'],
      completed: ['deleting'],
      deleting: ['deleted', 'orphaned'],
      orphaned: ['deleting'],
      deleted: [],
      failed: [],
    });
  });

  it('keeps terminal statuses terminal and never allows staying put as a move', () => {
    for (const to of RUN_STATUSES) {
      expect(canTransitionRun('deleted', to)).toBe(false);
      expect(canTransitionRun('failed', to)).toBe(false);
      expect(canTransitionRun(to, to)).toBe(false);
    }
    for (const to of MEMBER_STATUSES) expect(canTransitionMember('terminated', to)).toBe(false);
  });

  it('lets a completed run only be cleaned up, and reaches completed only from a working run', () => {
    expect(RUN_STATUSES.filter((to) => canTransitionRun('completed', to))).toEqual(['deleting']);
    expect(RUN_STATUSES.filter((from) => canTransitionRun(from, 'completed')).sort()).toEqual([
      'active',
      'shutdown_requested',
    ]);
  });

  it('only reaches terminated through shutdown_approved or errored, and every path starts pending', () => {
    const reachable = new Set<string>(['pending']);
    for (let round = 0; round < MEMBER_STATUSES.length; round += 1) {
      for (const from of [...reachable]) {
        for (const to of MEMBER_TRANSITIONS[from as keyof typeof MEMBER_TRANSITIONS])
          reachable.add(to);
      }
    }
    expect([...reachable].sort()).toEqual([...MEMBER_STATUSES].sort());
    const intoTerminated = MEMBER_STATUSES.filter((from) =>
      canTransitionMember(from, 'terminated'),
    );
    expect(intoTerminated.sort()).toEqual(['errored', 'shutdown_approved']);
  });
});

describe('status machines on real state files (property)', () => {
  let home: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: home, cleanup } = await makeTempFolder('teamkit-state-'));
  });
  afterEach(async () => cleanup());

  it('applies exactly the allowed run moves and refuses every other one, writing nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...RUN_STATUSES), { maxLength: 8 }),
        async (moves) => {
          const state = await createRunState(
            home,
            {
              spec: makeSpec([]),
              teamSource: { scope: 'inline' },
              hostId: 'test',
            },
            { store: createFileStore({ root: home }) },
          );
          let expected = state.status;
          for (const to of moves) {
            const allowed = to === expected || canTransitionRun(expected, to);
            try {
              await transitionRun(home, state.runId, to, {
                store: createFileStore({ root: home }),
              });
              expect(allowed).toBe(true);
              expected = to;
            } catch (error) {
              expect(allowed).toBe(false);
              expect(
                isTeamkitError(error, 'INVALID_TRANSITION') ||
                  isTeamkitError(error, 'RUN_NOT_ACTIVE'),
              ).toBe(true);
            }
            expect(
              (await readRunState(home, state.runId, { store: createFileStore({ root: home }) }))
                .status,
            ).toBe(expected);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('applies exactly the allowed member moves and refuses every other one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...MEMBER_STATUSES), { maxLength: 10 }),
        async (moves) => {
          const state = await createRunState(
            home,
            {
              spec: makeSpec(['worker']),
              teamSource: { scope: 'inline' },
              hostId: 'test',
            },
            { store: createFileStore({ root: home }) },
          );
          await transitionRun(home, state.runId, 'active', {
            store: createFileStore({ root: home }),
          });
          let expected: (typeof MEMBER_STATUSES)[number] = 'pending';
          for (const to of moves) {
            const allowed = to === expected || canTransitionMember(expected, to);
            try {
              await transitionMember(home, state.runId, 'worker', to, {
                store: createFileStore({ root: home }),
              });
              expect(allowed).toBe(true);
              expected = to;
            } catch (error) {
              expect(allowed).toBe(false);
              expect(isTeamkitError(error, 'INVALID_TRANSITION')).toBe(true);
            }
            const after = await readRunState(home, state.runId, {
              store: createFileStore({ root: home }),
            });
            expect(after.members.find((m) => m.name === 'worker')?.status).toBe(expected);
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
