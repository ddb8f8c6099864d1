import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createMailbox, createTaskList } from '@teamkit/team-core';
import { TeamSpecSchema } from '@teamkit/team-core/schema';
import { createRunState, transitionMember, transitionRun } from '@teamkit/team-core/state';
import {
  createFileStore,
  createMemoryStore,
  runKeys,
  runPaths,
  type TeamkitStore,
} from '@teamkit/team-core/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChaosLedger, checkRunInvariants } from './run-invariants.js';

let home: string;
/** The store holding the run: the home's file store, or a memory store with no files. */
let store: TeamkitStore;
let runId: string;
let ledger: ChaosLedger;

async function makeRun(): Promise<void> {
  const spec = TeamSpecSchema.parse({
    id: 'checker-team',
    name: 'Checker team',
    lead: 'lead',
    members: ['lead', 'm1', 'm2'].map((name) => ({ name, role: name, prompt: `You are ${name}.` })),
  });
  runId = (
    await createRunState(
      home,
      { spec, teamSource: { scope: 'inline' }, hostId: 'test' },
      { store: store },
    )
  ).runId;
  await transitionRun(home, runId, 'active', { store: store });
  for (const member of ['m1', 'm2']) {
    await transitionMember(home, runId, member, 'running', {
      store: store,
      sessionId: `pid:${member}`,
    });
  }
  const tasks = createTaskList({ store: store, home, runId });
  await tasks.createTask('lead', { subject: 'first' });
  await tasks.createTask('lead', { subject: 'second', blockedBy: ['1'] });
  await tasks.claimTask('m1', '1');
  ledger = new ChaosLedger();
  ledger.record('m1', 'claimed 1');
  const sent = await createMailbox({ store: store, home, runId }).sendMessage({
    from: 'm1',
    to: 'm2',
    body: 'hello',
  });
  ledger.record('m1', `sent m2 ${sent.messageId}`);
}

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-invariants-'));
  store = createFileStore({ root: home });
  await makeRun();
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const check = () =>
  checkRunInvariants({ home, store, runId, ledger, alive: ['m1', 'm2'], dead: [] });

describe('the chaos invariant checker', () => {
  it('passes a healthy run', async () => {
    expect(await check()).toEqual({
      messages: [],
      files: [],
      documents: [],
      tasks: [],
      'run-state': [],
    });
  });

  it('detects a torn file', async () => {
    const file = runPaths(home, runId).task('2');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.slice(0, text.length / 2));
    expect((await check()).files).toEqual([expect.stringContaining('is torn')]);
  });

  const taskEvent = (actor: string, type: string, data: Record<string, unknown>) =>
    `${JSON.stringify({ version: 1, runId, actor, type, ids: ['1'], data, at: Date.now() })}\n`;

  it('detects a task claimed by a second member while the first still held it', async () => {
    const { sequence } = await createTaskList({ store: store, home, runId }).getTask('1');
    await appendFile(
      runPaths(home, runId).events,
      taskEvent('m2', 'task.claimed', { owner: 'm2', sequence: (sequence ?? 0) + 1 }),
    );
    expect((await check()).tasks).toContainEqual(expect.stringContaining('while m1 still held it'));
  });

  it('replays the events of a task in sequence order, not in the order they were appended', async () => {
    const { sequence = 0 } = await createTaskList({ store: store, home, runId }).getTask('1');
    // m2's claim was appended before the release it followed.
    await appendFile(
      runPaths(home, runId).events,
      taskEvent('m2', 'task.claimed', { owner: 'm2', sequence: sequence + 2 }) +
        taskEvent('m1', 'task.status', { from: 'claimed', to: 'pending', sequence: sequence + 1 }),
    );
    const report = await check();
    expect(report.tasks.filter((line) => line.includes('still held it'))).toEqual([]);
  });

  it('judges who held a task by the event log, not by the order worker lines arrive in', async () => {
    const tasks = createTaskList({ store: store, home, runId });
    await tasks.setTaskStatus('m1', '1', 'pending');
    await tasks.claimTask('m2', '1');
    // m2's pipe was read first: its claim line arrives before m1's release line.
    ledger.record('m2', 'claimed 1');
    ledger.record('m1', 'status 1 claimed pending');
    expect((await check()).tasks).toEqual([]);
  });

  it('detects a dependency that is not symmetric', async () => {
    const file = runPaths(home, runId).task('1');
    const task = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...task, blocks: [] }));
    expect((await check()).tasks).toEqual([expect.stringContaining('does not block it back')]);
  });

  it('detects a lost message and a task kept by a dead member', async () => {
    ledger.record('m1', `sent m2 ${crypto.randomUUID()}`);
    const report = await checkRunInvariants({
      home,
      store,
      runId,
      ledger,
      alive: ['m2'],
      dead: ['m1'],
    });
    expect(report.messages).toEqual([expect.stringContaining('is in no place')]);
    expect(report.tasks).toEqual([expect.stringContaining('whose process died')]);
    expect(report['run-state']).toEqual(['m1 was killed but is running']);
  });

  it('detects a logged move the status machine forbids', async () => {
    ledger.record('m1', 'status 1 pending completed');
    expect((await check()).tasks).toEqual([expect.stringContaining('forbids')]);
  });
});

describe('the chaos invariant checker on a store without files', () => {
  beforeEach(async () => {
    // A fresh home whose runs live in a store of their own: nothing is on disk to walk.
    await rm(home, { recursive: true, force: true });
    home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-invariants-'));
    store = createMemoryStore();
    await makeRun();
  });
  const checkDocuments = () =>
    checkRunInvariants({
      home,
      store,
      runId,
      ledger,
      alive: ['m1', 'm2'],
      dead: [],
      documents: 'documents',
    });

  it('passes a healthy run and walks nothing on disk', async () => {
    expect(await checkDocuments()).toEqual({
      messages: [],
      files: [],
      documents: [],
      tasks: [],
      'run-state': [],
    });
  });

  it('detects a torn task, an unowned document and a message that fails its schema', async () => {
    const keys = runKeys(runId);
    const task = (await store.read(keys.task('2')))?.text ?? '';
    await store.put(keys.task('2'), task.slice(0, task.length / 2));
    await store.put(`${keys.root}/stray.json`, '{}');
    await store.addEntry(
      keys.inbox('m2'),
      '0b5c3f4e-3333-4333-8333-333333333333',
      '{"not":"a message"}',
    );
    const report = await checkDocuments();
    // Sorted: the store's values are read in parallel.
    expect([...report.documents].sort()).toEqual([
      expect.stringContaining(
        'inboxes/m2/0b5c3f4e-3333-4333-8333-333333333333.json fails its schema',
      ),
      expect.stringContaining('stray.json is a document nobody owns'),
      expect.stringContaining('tasks/2.json is torn'),
    ]);
    expect(report.files).toEqual([]);
  });
});
