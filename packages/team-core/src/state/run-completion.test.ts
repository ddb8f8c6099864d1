import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { createFileStore, type FileStore, readRunEvents } from '../storage/index.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { completeRun, decideRunCompletion } from './run-completion.js';
import {
  addCriteria,
  attachEvidence,
  setRunGoal,
  unmetCriteria,
  waiveCriterion,
} from './run-goal.js';
import {
  createRunState,
  readRunState,
  transitionMember,
  transitionRun,
  updateRunState,
} from './run-state-store.js';
import { runKeysOf } from './state-storage.js';
import { makeSpec } from './test-support/temp-home.js';

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isTeamkitError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a run that finishes', () => {
  let home: string;
  let store: FileStore;
  let cleanup: () => Promise<void>;
  let runId: string;

  async function start(goal?: { text: string; criteria?: string[] }) {
    const state = await createRunState(
      home,
      {
        spec: makeSpec(['writer', 'tester']),
        teamSource: { scope: 'inline' },
        hostId: 'test',
        ...(goal === undefined ? {} : { goal }),
      },
      { store },
    );
    runId = state.runId;
    await transitionRun(home, runId, 'active', { store });
    for (const name of ['lead', 'writer', 'tester'])
      await transitionMember(home, runId, name, 'running', {
        store: store,
        sessionId: `s-${name}`,
      });
  }

  async function shutDown(name: string) {
    await transitionMember(home, runId, name, 'shutdown_approved', {
      store: store,
    });
    await transitionMember(home, runId, name, 'terminated', {
      store: store,
    });
  }

  beforeEach(async () => {
    ({ dir: home, cleanup } = await makeTempFolder('teamkit-state-'));
    store = createFileStore({ root: home });
  });
  afterEach(async () => cleanup());

  it('stays working while a member works or the lead runs, then completes with the lead terminated', async () => {
    await start();
    await shutDown('writer');
    expect((await completeRun(home, runId, { leadEnded: true }, { store })).outcome).toBe(
      'working',
    );
    await transitionMember(home, runId, 'tester', 'errored', {
      store: store,
      reason: 'crashed',
    });
    expect((await completeRun(home, runId, { leadEnded: false }, { store })).outcome).toBe(
      'working',
    );
    expect((await readRunState(home, runId, { store })).status).toBe('active');

    const result = await completeRun(home, runId, { leadEnded: true }, { store });
    expect(result).toMatchObject({ outcome: 'complete', changed: true });
    const state = await readRunState(home, runId, { store });
    expect(state.status).toBe('completed');
    expect(state.completedAt).toBeTypeOf('number');
    expect(state.members.map((member) => [member.name, member.status])).toEqual([
      ['lead', 'terminated'],
      ['writer', 'terminated'],
      ['tester', 'errored'],
    ]);
    const { events } = await readRunEvents(store, runKeysOf(runId).events);
    expect(
      events.some((event) => event.type === 'run.status' && event.data?.to === 'completed'),
    ).toBe(true);
    // Completed is not working: a second look changes nothing, and the run takes no work.
    expect(await completeRun(home, runId, { leadEnded: true }, { store })).toMatchObject({
      outcome: 'not-working',
      changed: false,
    });
    expect(await refusal(transitionRun(home, runId, 'active', { store }))).toBe(
      'INVALID_TRANSITION',
    );
    await transitionRun(home, runId, 'deleting', { store });
  });

  it('does not quietly end with a criterion unmet; evidence or a waiver lets it complete', async () => {
    await start({ text: 'Ship the parser', criteria: ['parses the empty input', 'has tests'] });
    await shutDown('writer');
    await shutDown('tester');

    const first = await completeRun(home, runId, { leadEnded: false }, { store });
    expect(first).toMatchObject({ outcome: 'unmet', changed: true });
    if (first.outcome !== 'unmet') throw new Error('unmet expected');
    expect(first.unmet.map((criterion) => criterion.id)).toEqual(['1', '2']);
    const reason = (await readRunState(home, runId, { store })).statusReason ?? '';
    expect(reason).toContain('1 (parses the empty input); 2 (has tests)');
    // Asked again with nothing new: the same reason, so nobody is told twice.
    expect(await completeRun(home, runId, { leadEnded: true }, { store })).toMatchObject({
      outcome: 'unmet',
      changed: false,
    });
    expect((await readRunState(home, runId, { store })).status).toBe('active');

    await attachEvidence(home, runId, '1', { kind: 'task', ref: '4', by: 'lead' }, { store });
    const narrower = await completeRun(home, runId, { leadEnded: true }, { store });
    expect(narrower).toMatchObject({ outcome: 'unmet', changed: true });
    expect(
      await refusal(waiveCriterion(home, runId, '2', { by: 'lead', reason: 'no' }, { store })),
    ).toBe('PERMISSION_DENIED');
    await waiveCriterion(
      home,
      runId,
      '2',
      { by: 'user', reason: 'tests come in the next run' },
      { store },
    );
    expect(await completeRun(home, runId, { leadEnded: true }, { store })).toMatchObject({
      outcome: 'complete',
    });
    const state = await readRunState(home, runId, { store });
    expect(state.status).toBe('completed');
    expect(state.goal?.criteria[1]?.waived).toMatchObject({ by: 'user' });
    expect(unmetCriteria(state)).toEqual([]);
  });

  it('judges a lead working alone only once its process ended', async () => {
    const state = await createRunState(
      home,
      {
        spec: makeSpec([]),
        teamSource: { scope: 'inline' },
        hostId: 'test',
        goal: { text: 'Solo work', criteria: ['done'] },
      },
      { store },
    );
    await transitionRun(home, state.runId, 'active', { store });
    const active = await readRunState(home, state.runId, {
      store: store,
    });
    expect(decideRunCompletion(active, { leadEnded: false })).toEqual({ outcome: 'working' });
    expect(decideRunCompletion(active, { leadEnded: true }).outcome).toBe('unmet');
  });

  it('keeps the goal: set once, criteria only added, evidence and waivers never removed', async () => {
    await start();
    expect(
      await refusal(
        setRunGoal(home, runId, { text: 'Ship it', criteria: ['x'], by: 'writer' }, { store }),
      ),
    ).toBe('NOT_LEAD');
    await setRunGoal(home, runId, { text: 'Ship it', criteria: ['works'], by: 'lead' }, { store });
    await setRunGoal(
      home,
      runId,
      { text: 'Ship it', criteria: ['documented'], by: 'user' },
      { store },
    );
    expect(
      await refusal(setRunGoal(home, runId, { text: 'Something else', by: 'lead' }, { store })),
    ).toBe('INVALID_TRANSITION');
    await addCriteria(home, runId, ['fast'], 'lead', { store });
    const goal = (await readRunState(home, runId, { store })).goal;
    expect(
      goal?.criteria.map((criterion) => [criterion.id, criterion.text, criterion.addedBy]),
    ).toEqual([
      ['1', 'works', 'lead'],
      ['2', 'documented', 'user'],
      ['3', 'fast', 'lead'],
    ]);
    expect(
      await refusal(
        attachEvidence(home, runId, '9', { kind: 'task', ref: '1', by: 'lead' }, { store }),
      ),
    ).toBe('UNKNOWN_CRITERION');
    expect(
      await refusal(
        attachEvidence(home, runId, '1', { kind: 'task', ref: '1', by: 'writer' }, { store }),
      ),
    ).toBe('NOT_LEAD');
    await attachEvidence(home, runId, '1', { kind: 'task', ref: '1', by: 'lead' }, { store });
    await attachEvidence(home, runId, '1', { kind: 'task', ref: '1', by: 'lead' }, { store });
    expect((await readRunState(home, runId, { store })).goal?.criteria[0]?.evidence).toHaveLength(
      1,
    );

    for (const mutate of [
      (draft: Awaited<ReturnType<typeof readRunState>>) => {
        delete draft.goal;
      },
      (draft: Awaited<ReturnType<typeof readRunState>>) => {
        draft.goal?.criteria.pop();
      },
      (draft: Awaited<ReturnType<typeof readRunState>>) => {
        const first = draft.goal?.criteria[0];
        if (first) first.evidence = [];
      },
      (draft: Awaited<ReturnType<typeof readRunState>>) => {
        const first = draft.goal?.criteria[0];
        if (first) first.text = 'works, mostly';
      },
    ]) {
      expect(await refusal(updateRunState(home, runId, mutate, { store }))).toBe('INVALID_INPUT');
    }
    expect((await readRunState(home, runId, { store })).goal?.criteria).toHaveLength(3);
  });
});
