import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from '../storage/index.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { decidePermission, isPathAllowed, requestPermission } from './permission-requests.js';
import { createRunState, readRunState, transitionRun, updateRunState } from './run-state-store.js';
import { answerShutdown, requestShutdown } from './shutdown-requests.js';
import { makeSpec } from './test-support/temp-home.js';

describe('permission and shutdown requests', () => {
  let home: string;
  let cleanup: () => Promise<void>;
  let runId: string;
  beforeEach(async () => {
    ({ dir: home, cleanup } = await makeTempFolder('teamkit-state-'));
    const state = await createRunState(
      home,
      {
        spec: makeSpec(['writer']),
        teamSource: { scope: 'inline' },
        hostId: 'test',
      },
      { store: createFileStore({ root: home }) },
    );
    runId = state.runId;
    await transitionRun(home, runId, 'active', { store: createFileStore({ root: home }) });
    await updateRunState(
      home,
      runId,
      (draft) => {
        const writer = draft.members[1];
        if (writer) writer.worktreePath = '/wt/writer';
      },
      { store: createFileStore({ root: home }) },
    );
  });
  afterEach(async () => cleanup());

  it('persists pending requests; only the lead decides, once; remembered paths join the allowlist', async () => {
    const request = await requestPermission(
      home,
      runId,
      {
        member: 'writer',
        action: 'write',
        path: '/shared/docs',
      },
      { store: createFileStore({ root: home }) },
    );
    expect(
      (await readRunState(home, runId, { store: createFileStore({ root: home }) }))
        .permissionRequests,
    ).toEqual([request]);
    expect(
      isPathAllowed(
        await readRunState(home, runId, { store: createFileStore({ root: home }) }),
        'writer',
        '/shared/docs/a.md',
      ),
    ).toBe(false);
    await expect(
      decidePermission(
        home,
        runId,
        request.id,
        { decision: 'approved', decidedBy: 'writer' },
        { store: createFileStore({ root: home }) },
      ),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    const decided = await decidePermission(
      home,
      runId,
      request.id,
      {
        decision: 'approved',
        decidedBy: 'lead',
        remember: true,
      },
      { store: createFileStore({ root: home }) },
    );
    expect(decided.status).toBe('approved');
    await expect(
      decidePermission(
        home,
        runId,
        request.id,
        { decision: 'denied', decidedBy: 'lead' },
        { store: createFileStore({ root: home }) },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(state.pathAllowlists).toEqual({ writer: ['/shared/docs'] });
    expect(isPathAllowed(state, 'writer', '/shared/docs/a.md')).toBe(true);
    expect(isPathAllowed(state, 'writer', '/wt/writer/src/x.ts')).toBe(true);
    expect(isPathAllowed(state, 'writer', '/wt/writer/../lead/x.ts')).toBe(false);
    expect(isPathAllowed(state, 'writer', '/shared/docs-evil/a.md')).toBe(false);
    expect(isPathAllowed(state, 'writer', 'relative/x')).toBe(false);
    await expect(
      requestPermission(
        home,
        runId,
        { member: 'writer', action: 'write', path: 'relative' },
        { store: createFileStore({ root: home }) },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('approving a shutdown moves the member through its machine', async () => {
    await requestShutdown(
      home,
      runId,
      { member: 'writer', requester: 'lead' },
      { store: createFileStore({ root: home }) },
    );
    await answerShutdown(
      home,
      runId,
      'writer',
      { approve: true },
      { store: createFileStore({ root: home }) },
    );
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(state.members[1]?.status).toBe('shutdown_approved');
    expect(state.shutdownRequests[0]).toMatchObject({ member: 'writer', requester: 'lead' });
    expect(state.shutdownRequests[0]?.approvedAt).toBeTypeOf('number');
    await expect(
      answerShutdown(
        home,
        runId,
        'writer',
        { approve: true },
        { store: createFileStore({ root: home }) },
      ),
    ).rejects.toMatchObject({
      code: 'INVALID_TRANSITION',
    });
  });
});
