import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { readRunEvents } from '../storage/event-log.js';
import { createFileStore, runKeys } from '../storage/index.js';
import { runPaths } from '../storage/teamkit-home.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import {
  createRunState,
  listRuns,
  readRunState,
  transitionMember,
  transitionRun,
  updateRunState,
} from './run-state-store.js';
import { makeClock, makeSpec } from './test-support/temp-home.js';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (isTeamkitError(error)) return error.code;
    throw error;
  }
}

describe('run state store', () => {
  let home: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: home, cleanup } = await makeTempFolder('teamkit-state-'));
  });
  afterEach(async () => cleanup());

  const create = (workers = ['writer', 'reviewer'], options = {}) =>
    createRunState(
      home,
      {
        spec: makeSpec(workers),
        teamSource: { scope: 'project', path: '/p' },
        hostId: 'test',
        repoRoot: '/repo',
      },
      { store: createFileStore({ root: home }), ...options },
    );

  it('creates a run in creating with pending members and the lead marked', async () => {
    const clock = makeClock();
    const state = await create(undefined, { now: clock.now });
    expect(state.status).toBe('creating');
    expect(state.createdAt).toBe(clock.now());
    expect(state.members.map((m) => [m.name, m.isLead, m.status])).toEqual([
      ['lead', true, 'pending'],
      ['writer', false, 'pending'],
      ['reviewer', false, 'pending'],
    ]);
    expect(
      await readRunState(home, state.runId, { store: createFileStore({ root: home }) }),
    ).toEqual(state);
    const { events } = await readRunEvents(
      createFileStore({ root: home }),
      runKeys(state.runId).events,
    );
    expect(events.map((e) => e.type)).toEqual(['run.created']);
  });

  it('reports a missing run as RUN_NOT_FOUND and a torn file as CORRUPT_DOCUMENT, keeping it', async () => {
    const missing = '6f1c1b4e-0000-4000-8000-000000000000';
    expect(
      await codeOf(readRunState(home, missing, { store: createFileStore({ root: home }) })),
    ).toBe('RUN_NOT_FOUND');
    expect(
      await codeOf(
        transitionRun(home, missing, 'active', { store: createFileStore({ root: home }) }),
      ),
    ).toBe('RUN_NOT_FOUND');
    const state = await create();
    const file = runPaths(home, state.runId).state;
    await writeFile(file, '{"version":1,"runId":');
    expect(
      await codeOf(readRunState(home, state.runId, { store: createFileStore({ root: home }) })),
    ).toBe('CORRUPT_DOCUMENT');
    expect(
      await codeOf(
        transitionRun(home, state.runId, 'active', { store: createFileStore({ root: home }) }),
      ),
    ).toBe('CORRUPT_DOCUMENT');
    expect(await readFile(file, 'utf8')).toBe('{"version":1,"runId":');
    const listing = await listRuns(home, { store: createFileStore({ root: home }) });
    expect(listing.runs).toEqual([]);
    expect(listing.problems).toEqual([
      expect.objectContaining({ path: path.relative(home, file), code: 'CORRUPT_DOCUMENT' }),
    ]);
    expect(await readFile(file, 'utf8')).toBe('{"version":1,"runId":');
  });

  it('refuses a mutate that skips the status machines, writing nothing', async () => {
    const state = await create();
    const before = await readFile(runPaths(home, state.runId).state, 'utf8');
    expect(
      await codeOf(
        updateRunState(
          home,
          state.runId,
          (draft) => {
            draft.status = 'deleted';
          },
          { store: createFileStore({ root: home }) },
        ),
      ),
    ).toBe('INVALID_TRANSITION');
    expect(
      await codeOf(
        updateRunState(
          home,
          state.runId,
          (draft) => {
            const writer = draft.members[1];
            if (writer) writer.status = 'terminated';
          },
          { store: createFileStore({ root: home }) },
        ),
      ),
    ).toBe('INVALID_TRANSITION');
    expect(
      await codeOf(
        updateRunState(
          home,
          state.runId,
          (draft) => ({
            ...draft,
            members: draft.members.slice(1),
          }),
          { store: createFileStore({ root: home }) },
        ),
      ),
    ).toBe('INVALID_INPUT');
    expect(
      await codeOf(
        updateRunState(
          home,
          state.runId,
          (draft) => {
            draft.runId = '6f1c1b4e-0000-4000-8000-000000000000';
          },
          { store: createFileStore({ root: home }) },
        ),
      ),
    ).toBe('INVALID_INPUT');
    expect(
      await codeOf(
        updateRunState(
          home,
          state.runId,
          (draft) => {
            (draft as { status: string }).status = 'exploded';
          },
          { store: createFileStore({ root: home }) },
        ),
      ),
    ).toBe('INVALID_INPUT');
    expect(await readFile(runPaths(home, state.runId).state, 'utf8')).toBe(before);
  });

  it('refuses every write to a terminal run with RUN_NOT_ACTIVE', async () => {
    const state = await create();
    await transitionRun(home, state.runId, 'failed', {
      store: createFileStore({ root: home }),
      reason: 'spawn failed',
    });
    expect(
      await codeOf(
        updateRunState(
          home,
          state.runId,
          (draft) => {
            draft.leadSessionId = 'x';
          },
          { store: createFileStore({ root: home }) },
        ),
      ),
    ).toBe('RUN_NOT_ACTIVE');
    expect(
      await codeOf(
        transitionMember(home, state.runId, 'writer', 'running', {
          store: createFileStore({ root: home }),
        }),
      ),
    ).toBe('RUN_NOT_ACTIVE');
  });

  it('moves members, records reasons and events, and names unknown members', async () => {
    const state = await create();
    await transitionRun(home, state.runId, 'active', { store: createFileStore({ root: home }) });
    const after = await transitionMember(home, state.runId, 'writer', 'running', {
      store: createFileStore({ root: home }),
      sessionId: 's-1',
    });
    expect(after.members[1]).toMatchObject({ status: 'running', sessionId: 's-1' });
    const errored = await transitionMember(home, state.runId, 'writer', 'errored', {
      store: createFileStore({ root: home }),
      reason: 'crashed',
    });
    expect(errored.members[1]).toMatchObject({ status: 'errored', statusReason: 'crashed' });
    expect(
      await codeOf(
        transitionMember(home, state.runId, 'nobody', 'running', {
          store: createFileStore({ root: home }),
        }),
      ),
    ).toBe('UNKNOWN_MEMBER');
    const { events } = await readRunEvents(
      createFileStore({ root: home }),
      runKeys(state.runId).events,
    );
    expect(events.map((e) => [e.type, e.data?.to])).toEqual([
      ['run.created', 'creating'],
      ['run.status', 'active'],
      ['member.status', 'running'],
      ['member.status', 'errored'],
    ]);
  });

  it('serialises concurrent updates under the state lock so no increment is lost', async () => {
    const state = await create();
    await transitionRun(home, state.runId, 'active', { store: createFileStore({ root: home }) });
    await Promise.all(
      Array.from({ length: 20 }, () =>
        updateRunState(
          home,
          state.runId,
          (draft) => {
            draft.counters.turns += 1;
          },
          { store: createFileStore({ root: home }) },
        ),
      ),
    );
    expect(
      (await readRunState(home, state.runId, { store: createFileStore({ root: home }) })).counters
        .turns,
    ).toBe(20);
  });

  it('lists runs oldest first without writing anything', async () => {
    const clock = makeClock();
    const first = await create(undefined, { now: clock.now });
    clock.advance(1000);
    const second = await create(undefined, { now: clock.now });
    const file = runPaths(home, first.runId).state;
    const before = await readFile(file, 'utf8');
    const listing = await listRuns(home, { store: createFileStore({ root: home }) });
    expect(listing.runs.map((r) => r.runId)).toEqual([first.runId, second.runId]);
    expect(await readFile(file, 'utf8')).toBe(before);
  });
});
