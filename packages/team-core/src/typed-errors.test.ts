import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError, TEAMKIT_ERROR_CODES } from './errors/index.js';
import { createMailbox } from './mailbox/index.js';
import { createMemberClient } from './runtime/member-client.js';
import { MEMBER_STATUSES, RUN_STATUSES, TASK_STATUSES } from './schema/index.js';
import {
  addMember,
  answerShutdown,
  assertCanSpawn,
  assertCanTakeTurn,
  assertLegalStateChange,
  assertWithinWallClock,
  countParallelMembers,
  createRunState,
  decidePermission,
  findLead,
  findMember,
  isPathAllowed,
  listRuns,
  readRunState,
  recordTurn,
  requestPermission,
  requestShutdown,
  requireLead,
  resumeAll,
  resumeRun,
  startMember,
  sweepRuns,
  transitionMember,
  transitionRun,
  updateRunState,
} from './state/index.js';
import { makeSpec } from './state/test-support/temp-home.js';
import { createFileStore } from './storage/index.js';
import { createTaskList } from './tasklist/index.js';
import { createRunFixture, type RunFixture } from './test-support/run-fixture.js';

// Only a TeamkitError with a documented code may leave a public function, whatever it is
// given: every operation below is fed arbitrary values (wrong types, huge strings, odd
// objects) mixed with plausible ones, and whatever it throws must be typed. Bad input is
// never an internal failure, so no `internal`-kind code is acceptable either.

let fixture: RunFixture;
beforeAll(async () => {
  fixture = await createRunFixture();
  const tasks = createTaskList({
    store: createFileStore({ root: fixture.home }),
    home: fixture.home,
    runId: fixture.runId,
  });
  const first = await tasks.createTask('lead', { subject: 'first' });
  await tasks.createTask('lead', { subject: 'second', blockedBy: [first.id] });
  await tasks.claimTask('writer', first.id);
  await createMailbox({
    store: createFileStore({ root: fixture.home }),
    home: fixture.home,
    runId: fixture.runId,
  }).sendMessage({
    from: 'lead',
    to: 'writer',
    body: 'hello',
  });
});
afterAll(async () => {
  await fixture.cleanup();
});
// Operations may move the run on (stop it, terminate members); each starts from an active run.
beforeEach(async () => {
  await fixture.writeState({});
});

const weird = fc.anything({
  maxDepth: 2,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});
const oddText = fc.oneof(
  fc.string(),
  fc.string({ minLength: 2_001, maxLength: 3_100 }),
  fc.constantFrom('', ' ', '*', '..', '../state', 'a\u0000b', 'Lead', 'x'.repeat(70)),
);
/** A plausible value half the time, anything at all otherwise. */
const or = <T>(plausible: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 1, arbitrary: oddText }, weird);
const member = or(fc.constantFrom('lead', 'writer', 'writer-2', 'nobody'));
const taskId = or(fc.constantFrom('1', '2', '3', '999', '0', '01', '-1'));
const messageId = or(fc.uuid());
const ids = <T>(id: fc.Arbitrary<T>) => or(fc.array(id, { maxLength: 3 }));
const reason = or(fc.constantFrom('because', 'x'.repeat(3_000)));
const taskStatus = or(fc.constantFrom(...TASK_STATUSES));
const object = <T>(fields: { [K in keyof T]: fc.Arbitrary<T[K]> }) =>
  or(fc.record(fields, { requiredKeys: [] }));

/** One call of a public operation, ready to run. */
type Call = [name: string, run: () => unknown];
const call = <A extends unknown[]>(
  name: string,
  args: { [K in keyof A]: fc.Arbitrary<A[K]> },
  run: (...values: A) => unknown,
): fc.Arbitrary<Call> =>
  fc
    .tuple(...(args as fc.Arbitrary<unknown>[]))
    .map(
      (values): Call => [
        `${name}(${fc.stringify(values).slice(0, 300)})`,
        () => run(...(values as A)),
      ],
    );

async function expectOnlyTypedErrors(calls: fc.Arbitrary<Call>, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(calls, async ([name, run]) => {
      await fixture.writeState({});
      const error = await Promise.resolve()
        .then(run)
        .then(
          () => undefined,
          (caught: unknown) => caught ?? new Error('rejected with nothing'),
        );
      if (error === undefined) return;
      expect(isTeamkitError(error), `${name} threw ${String(error)}`).toBe(true);
      if (!isTeamkitError(error)) return;
      expect(Object.keys(TEAMKIT_ERROR_CODES), name).toContain(error.code);
      expect(error.kind, `${name} threw ${error.code}: ${error.message}`).not.toBe('internal');
    }),
    { numRuns },
  );
}

// More runs for a deeper search: TEAMKIT_PROPERTY_RUNS=5000 npx vitest run src/typed-errors.test.ts
const NUM_RUNS = Number(process.env.TEAMKIT_PROPERTY_RUNS ?? 300);

describe('only typed errors leave a public function', () => {
  it('mailbox', async () => {
    const mailbox = () =>
      createMailbox({
        store: createFileStore({ root: fixture.home }),
        home: fixture.home,
        runId: fixture.runId,
      });
    const message = object({
      from: member,
      to: or(fc.constantFrom('lead', 'writer', '*', 'nobody')),
      kind: or(fc.constantFrom('message', 'announcement', 'gossip')),
      body: or(fc.constantFrom('hi', 'é'.repeat(20_000))),
      summary: oddText,
      references: or(fc.array(object({ path: oddText, description: oddText }), { maxLength: 2 })),
      correlationId: messageId,
      color: oddText,
      messageId,
    });
    await expectOnlyTypedErrors(
      fc.oneof(
        call('sendMessage', [message], (input) => mailbox().sendMessage(input as never)),
        call('listUnread', [member], (m) => mailbox().listUnread(m as never)),
        call('reserve', [member, ids(messageId)], (m, i) =>
          mailbox().reserve(m as never, i as never),
        ),
        call('commit', [member, ids(messageId)], (m, i) =>
          mailbox().commit(m as never, i as never),
        ),
        call('release', [member, ids(messageId)], (m, i) =>
          mailbox().release(m as never, i as never),
        ),
        call('acknowledge', [member, ids(messageId)], (m, i) =>
          mailbox().acknowledge(m as never, i as never),
        ),
        call('reclaimStaleReservations', [or(fc.integer()), fc.option(member)], (ms, m) =>
          mailbox().reclaimStaleReservations(ms as never, (m ?? undefined) as never),
        ),
        call('countMessagesSent', [], () => mailbox().countMessagesSent()),
        call(
          'watchInbox',
          [
            member,
            or(fc.constant(() => {})),
            object({ reconcileIntervalMs: or(fc.nat()), onError: weird }),
          ],
          async (m, onMessages, options) => {
            const dispose = await mailbox().watchInbox(
              m as never,
              onMessages as never,
              options as never,
            );
            await dispose();
          },
        ),
        call('createMailbox', [or(fc.uuid())], (runId) =>
          createMailbox({
            store: createFileStore({ root: fixture.home }),
            home: fixture.home,
            runId: runId as never,
          }).listUnread('lead'),
        ),
      ),
      NUM_RUNS,
    );
  });

  it('task list', async () => {
    const tasks = () =>
      createTaskList({
        store: createFileStore({ root: fixture.home }),
        home: fixture.home,
        runId: fixture.runId,
      });
    const details = {
      subject: or(fc.constantFrom('a task', 'x'.repeat(600))),
      description: oddText,
      activeForm: oddText,
      metadata: or(fc.dictionary(fc.string(), weird, { maxKeys: 2 })),
    };
    const creation = object({ ...details, blockedBy: ids(taskId), blocks: ids(taskId) });
    await expectOnlyTypedErrors(
      fc.oneof(
        call('createTask', [member, creation], (c, input) =>
          tasks().createTask(c as never, input as never),
        ),
        call('getTask', [taskId], (id) => tasks().getTask(id as never)),
        call(
          'listTasks',
          [
            object({
              status: or(fc.oneof(taskStatus, fc.array(taskStatus))),
              owner: member,
              includeDeleted: weird,
            }),
          ],
          (filter) => tasks().listTasks(filter as never),
        ),
        call('readyTasks', [], () => tasks().readyTasks()),
        call('claimTask', [member, taskId], (c, id) => tasks().claimTask(c as never, id as never)),
        call(
          'setTaskStatus',
          [member, taskId, taskStatus, object({ reason, note: reason })],
          (c, id, to, options) =>
            tasks().setTaskStatus(c as never, id as never, to as never, options as never),
        ),
        call('reassignTask', [member, taskId, member], (c, id, owner) =>
          tasks().reassignTask(c as never, id as never, owner as never),
        ),
        call('updateTaskDetails', [member, taskId, object(details)], (c, id, patch) =>
          tasks().updateTaskDetails(c as never, id as never, patch as never),
        ),
        call('addDependency', [member, taskId, taskId], (c, a, b) =>
          tasks().addDependency(c as never, a as never, b as never),
        ),
        call('removeDependency', [member, taskId, taskId], (c, a, b) =>
          tasks().removeDependency(c as never, a as never, b as never),
        ),
        call('deleteTask', [member, taskId, fc.option(reason)], (c, id, r) =>
          tasks().deleteTask(c as never, id as never, (r ?? undefined) as never),
        ),
        call('releaseTasksOf', [member, member], (c, m) =>
          tasks().releaseTasksOf(c as never, m as never),
        ),
      ),
      NUM_RUNS,
    );
  });

  it('run state', async () => {
    const { home } = fixture;
    const runId = or(fc.constant(fixture.runId));
    const options = object({ reason, sessionId: oddText, actor: member });
    const state = () =>
      readRunState(home, fixture.runId, { store: createFileStore({ root: home }) });
    const spec = or(fc.constant(makeSpec(['writer'])));
    await expectOnlyTypedErrors(
      fc.oneof(
        call(
          'createRunState',
          [
            object({
              spec,
              teamSource: or(fc.constant({ scope: 'inline' })),
              hostId: oddText,
              repoRoot: oddText,
              leadSessionId: oddText,
              runId: or(fc.uuid()),
            }),
          ],
          (input) =>
            createRunState(home, input as never, { store: createFileStore({ root: home }) }),
        ),
        call('readRunState', [runId], (id) =>
          readRunState(home, id as never, { store: createFileStore({ root: home }) }),
        ),
        call('updateRunState(returns)', [runId, weird], (id, value) =>
          updateRunState(home, id as never, () => value as never, {
            store: createFileStore({ root: home }),
          }),
        ),
        call('updateRunState(sets)', [runId, fc.string(), weird], (id, key, value) =>
          updateRunState(
            home,
            id as never,
            (draft) => {
              (draft as unknown as Record<string, unknown>)[key] = value;
            },
            { store: createFileStore({ root: home }) },
          ),
        ),
        call('transitionRun', [runId, or(fc.constantFrom(...RUN_STATUSES)), options], (id, to, o) =>
          transitionRun(home, id as never, to as never, o as never),
        ),
        call(
          'transitionMember',
          [runId, member, or(fc.constantFrom(...MEMBER_STATUSES)), options],
          (id, m, to, o) =>
            transitionMember(home, id as never, m as never, to as never, o as never),
        ),
        call('startMember', [runId, member, object({ sessionId: oddText })], (id, m, input) =>
          startMember(home, id as never, m as never, input as never, {
            store: createFileStore({ root: home }),
          }),
        ),
        call(
          'addMember',
          [runId, object({ name: member, role: oddText, model: oddText, color: oddText })],
          (id, input) =>
            addMember(home, id as never, input as never, {
              store: createFileStore({ root: home }),
            }),
        ),
        call('recordTurn', [runId, member], (id, m) =>
          recordTurn(home, id as never, m as never, { store: createFileStore({ root: home }) }),
        ),
        call(
          'requestShutdown',
          [runId, object({ member, requester: member, reason })],
          (id, input) =>
            requestShutdown(home, id as never, input as never, {
              store: createFileStore({ root: home }),
            }),
        ),
        call(
          'answerShutdown',
          [runId, member, object({ approve: weird, reason })],
          (id, m, answer) =>
            answerShutdown(home, id as never, m as never, answer as never, {
              store: createFileStore({ root: home }),
            }),
        ),
        call(
          'requestPermission',
          [
            runId,
            object({
              member,
              action: oddText,
              path: or(fc.constantFrom('/tmp/x', 'relative')),
              reason,
            }),
          ],
          (id, input) =>
            requestPermission(home, id as never, input as never, {
              store: createFileStore({ root: home }),
            }),
        ),
        call(
          'decidePermission',
          [
            runId,
            oddText,
            object({
              decision: or(fc.constantFrom('approved', 'denied')),
              decidedBy: member,
              reason,
              remember: weird,
            }),
          ],
          (id, request, decision) =>
            decidePermission(home, id as never, request as never, decision as never, {
              store: createFileStore({ root: home }),
            }),
        ),
        call('listRuns', [], () => listRuns(home, { store: createFileStore({ root: home }) })),
        call('resumeRun', [runId, object({ creatingTimeoutMs: or(fc.integer()) })], (id, o) =>
          resumeRun(home, id as never, { isAlive: async () => true }, o as never),
        ),
        call('resumeAll', [weird], (alive) =>
          resumeAll(
            home,
            { isAlive: async () => alive as never },
            { store: createFileStore({ root: home }) },
          ),
        ),
        call('sweepRuns', [object({ failedRetentionMs: or(fc.integer()) })], (o) =>
          sweepRuns(home, o as never),
        ),
        call(
          'assertCanSpawn',
          [object({ newMember: weird, now: or(fc.integer()) })],
          async (check) => assertCanSpawn(await state(), check as never),
        ),
        call('assertCanTakeTurn', [member, or(fc.integer())], async (m, now) =>
          assertCanTakeTurn(await state(), m as never, now as never),
        ),
        call('assertWithinWallClock', [or(fc.integer())], async (now) =>
          assertWithinWallClock(await state(), now as never),
        ),
        call('assertLegalStateChange', [fc.string(), weird], async (key, value) => {
          const before = await state();
          const after = { ...before, [key]: value };
          assertLegalStateChange(before, after as never);
        }),
        call('findMember', [member], async (m) => findMember(await state(), m as never)),
        call('findLead', [], async () => findLead(await state())),
        call('requireLead', [], async () => requireLead(await state())),
        call('countParallelMembers', [], async () => countParallelMembers(await state())),
        call('isPathAllowed', [member, oddText], async (m, target) =>
          isPathAllowed(await state(), m as never, target as never),
        ),
      ),
      NUM_RUNS,
    );
  });

  it('member client', async () => {
    const client = (name: unknown) =>
      createMemberClient({
        store: createFileStore({ root: fixture.home }),
        home: fixture.home,
        runId: fixture.runId,
        member: name as never,
      });
    const message = object({
      to: or(fc.constantFrom('lead', 'writer', '*')),
      body: oddText,
      kind: or(fc.constantFrom('message', 'shutdown_request')),
      summary: oddText,
      references: weird,
      correlationId: messageId,
    });
    const byId = (name: string, run: (c: ReturnType<typeof client>, id: never) => unknown) =>
      call(name, [member, taskId], (m, id) => run(client(m), id as never));
    const byIdWithText = (
      name: string,
      run: (c: ReturnType<typeof client>, id: never, text: never) => unknown,
    ) =>
      call(name, [member, taskId, reason], (m, id, text) =>
        run(client(m), id as never, text as never),
      );
    await expectOnlyTypedErrors(
      fc.oneof(
        call('send', [member, message], (m, input) => client(m).send(input as never)),
        call('inbox', [member], (m) => client(m).inbox()),
        call('acknowledge', [member, ids(messageId)], (m, i) => client(m).acknowledge(i as never)),
        call(
          'createTask',
          [member, object({ subject: oddText, blockedBy: ids(taskId) })],
          (m, input) => client(m).createTask(input as never),
        ),
        call('listTasks', [member, object({ status: taskStatus, owner: member })], (m, filter) =>
          client(m).listTasks(filter as never),
        ),
        call('readyTasks', [member], (m) => client(m).readyTasks()),
        byId('getTask', (c, id) => c.getTask(id)),
        byId('claimTask', (c, id) => c.claimTask(id)),
        byId('startTask', (c, id) => c.startTask(id)),
        byId('completeTask', (c, id) => c.completeTask(id)),
        byId('submitForReview', (c, id) => c.submitForReview(id)),
        byId('approveTask', (c, id) => c.approveTask(id)),
        byIdWithText('requestChanges', (c, id, note) => c.requestChanges(id, note)),
        byIdWithText('blockTask', (c, id, text) => c.blockTask(id, text)),
        byId('unblockTask', (c, id) => c.unblockTask(id)),
        byIdWithText('cancelTask', (c, id, text) => c.cancelTask(id, text)),
        byId('releaseTask', (c, id) => c.releaseTask(id)),
        byIdWithText('deleteTask', (c, id, text) => c.deleteTask(id, text)),
        call('reassignTask', [member, taskId, member], (m, id, owner) =>
          client(m).reassignTask(id as never, owner as never),
        ),
        call('requestShutdown', [member, member, reason], (m, target, text) =>
          client(m).requestShutdown(target as never, text as never),
        ),
        call('approveShutdown', [member], (m) => client(m).approveShutdown()),
        call('rejectShutdown', [member, reason], (m, text) =>
          client(m).rejectShutdown(text as never),
        ),
        call('state', [member], (m) => client(m).state()),
      ),
      NUM_RUNS,
    );
  });
});
