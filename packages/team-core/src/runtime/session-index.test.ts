import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamSpecSchema } from '../schema/index.js';
import { createRunState, startMember, transitionMember, transitionRun } from '../state/index.js';
import { createFileStore } from '../storage/index.js';
import { findSessionMember } from './session-index.js';
import { crewTeam, makeRuntimeHome } from './test-support/recording-host.js';

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await makeRuntimeHome());
});
afterEach(async () => cleanup());

let clock = 1_700_000_000_000;
const now = () => clock;

async function run(status: 'creating' | 'active' | 'deleted', lead: string, worker?: string) {
  clock += 1_000;
  const spec = TeamSpecSchema.parse(crewTeam(1));
  const state = await createRunState(
    home,
    { spec, teamSource: { scope: 'inline' }, hostId: 'test', leadSessionId: lead },
    { store: createFileStore({ root: home }), now },
  );
  await startMember(
    home,
    state.runId,
    'lead',
    { sessionId: lead },
    { store: createFileStore({ root: home }), now },
  );
  if (worker !== undefined)
    await startMember(
      home,
      state.runId,
      'worker-1',
      { sessionId: worker },
      { store: createFileStore({ root: home }), now },
    );
  if (status !== 'creating')
    await transitionRun(home, state.runId, 'active', {
      store: createFileStore({ root: home }),
      now,
    });
  if (status === 'deleted') {
    await transitionRun(home, state.runId, 'deleting', {
      store: createFileStore({ root: home }),
      now,
    });
    await transitionRun(home, state.runId, 'deleted', {
      store: createFileStore({ root: home }),
      now,
    });
  }
  return state.runId;
}

describe('findSessionMember', () => {
  it('finds the member of a session, with its run, lead flag and the lead', async () => {
    const runId = await run('active', 'ses-lead', 'ses-worker');
    expect(
      await findSessionMember(home, 'ses-worker', { store: createFileStore({ root: home }) }),
    ).toMatchObject({
      runId,
      member: 'worker-1',
      isLead: false,
      lead: 'lead',
      state: { runId },
    });
    expect(
      await findSessionMember(home, 'ses-lead', { store: createFileStore({ root: home }) }),
    ).toMatchObject({
      member: 'lead',
      isLead: true,
    });
    expect(
      await findSessionMember(home, 'ses-nobody', { store: createFileStore({ root: home }) }),
    ).toBeUndefined();
  });

  it('lets the newest run win for a lead session that leads a second run', async () => {
    await run('active', 'ses-lead');
    const newer = await run('active', 'ses-lead');
    expect(
      (await findSessionMember(home, 'ses-lead', { store: createFileStore({ root: home }) }))
        ?.runId,
    ).toBe(newer);
  });

  it('counts runs being set up, skips stopped runs, and skips terminated members', async () => {
    const creating = await run('creating', 'ses-a', 'ses-a-worker');
    expect(
      (await findSessionMember(home, 'ses-a-worker', { store: createFileStore({ root: home }) }))
        ?.runId,
    ).toBe(creating);
    const older = await run('active', 'ses-b');
    await run('deleted', 'ses-b');
    expect(
      (await findSessionMember(home, 'ses-b', { store: createFileStore({ root: home }) }))?.runId,
    ).toBe(older);
    const active = await run('active', 'ses-c', 'ses-c-worker');
    await transitionMember(home, active, 'worker-1', 'errored', {
      store: createFileStore({ root: home }),
    });
    expect(
      (await findSessionMember(home, 'ses-c-worker', { store: createFileStore({ root: home }) }))
        ?.member,
    ).toBe('worker-1');
    await transitionMember(home, active, 'worker-1', 'terminated', {
      store: createFileStore({ root: home }),
    });
    expect(
      await findSessionMember(home, 'ses-c-worker', { store: createFileStore({ root: home }) }),
    ).toBeUndefined();
  });
});
