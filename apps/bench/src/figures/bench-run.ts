import { isTeamkitError, openRun } from '@teamkit/team-core';
import { TeamSpecSchema } from '@teamkit/team-core/schema';
import { createRunState, transitionRun } from '@teamkit/team-core/state';
import type { LockOptions } from '@teamkit/team-core/storage';
import { createFileStore } from '@teamkit/team-core/storage';

/** The run id every "ours" figure uses inside its own folder (the folder is the Teamkit home). */
export const BENCH_RUN_ID = '00000000-0000-4000-8000-00000000be7c';

/** Everyone a figure may send as, send to or claim as. */
export const BENCH_MEMBERS: readonly string[] = [
  'lead',
  'builder',
  'probe',
  ...Array.from({ length: 8 }, (_, index) => `writer-${index}`),
  ...Array.from({ length: 8 }, (_, index) => `claimer-${index}`),
];

/** Lock tuning of the bench: the defaults, spelled out so the figures say what they measure. */
export const BENCH_LOCK: LockOptions = { staleMs: 10_000, timeoutMs: 60_000 };

/**
 * Makes sure `home` holds an active bench run (state.json, as `createRunState` and
 * `transitionRun` write it) whose roster has {@link BENCH_MEMBERS} and whose caps do
 * not get in the way of a benchmark: the bounds and the unread cap are raised, nothing
 * else is loosened. Safe to call from several processes at once.
 */
export async function ensureBenchRun(home: string): Promise<string> {
  try {
    const state = await openRun({
      home: home,
      runId: BENCH_RUN_ID,
      store: createFileStore({ root: home }),
    }).state.read();
    if (state.status === 'active') return BENCH_RUN_ID;
  } catch (error) {
    if (!isTeamkitError(error) || error.code !== 'RUN_NOT_FOUND') throw error;
    const spec = TeamSpecSchema.parse({
      id: 'bench-team',
      name: 'Bench team',
      lead: 'lead',
      members: BENCH_MEMBERS.map((name) => ({ name, role: name, prompt: `You are ${name}.` })),
      policy: {
        bounds: { maxMembers: 64, maxMessagesPerRun: 100_000_000, maxWallClockMinutes: 100_000 },
        unreadMaxBytes: 256 * 1024 * 1024,
        broadcast: 'everyone',
      },
    });
    try {
      await createRunState(
        home,
        { spec, teamSource: { scope: 'inline' }, hostId: 'bench', runId: BENCH_RUN_ID },
        { store: createFileStore({ root: home }), lock: BENCH_LOCK },
      );
    } catch (createError) {
      if (!isTeamkitError(createError) || createError.code !== 'ALREADY_EXISTS') throw createError;
    }
  }
  await transitionRun(home, BENCH_RUN_ID, 'active', {
    store: createFileStore({ root: home }),
    lock: BENCH_LOCK,
  });
  return BENCH_RUN_ID;
}
