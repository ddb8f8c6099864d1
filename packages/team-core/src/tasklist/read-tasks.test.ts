import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../schema/index.js';
import { createFileStore } from '../storage/index.js';
import { createMemoryStore } from '../storage/memory-store/create-memory-store.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createTaskList, type TaskList } from './create-task-list.js';

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

/**
 * A store that runs `between` once, right after the next listing and before the task
 * list reads what it listed: another writer changing tasks in the middle of a read.
 */
function withPauseAfterListing(store: TeamkitStore) {
  let between: (() => Promise<void>) | undefined;
  const paused: TeamkitStore = {
    ...store,
    async list(prefix) {
      const names = await store.list(prefix);
      const run = between;
      between = undefined;
      await run?.();
      return names;
    },
  };
  return {
    store: paused,
    onNextListing(fn: () => Promise<void>) {
      between = fn;
    },
  };
}

const stores: Record<string, () => Promise<TeamkitStore>> = {
  'file store': async () => fixture.store,
  'memory store': async () => {
    const memory = createMemoryStore();
    const state = await fixture.store.read(fixture.keys.state);
    await memory.put(fixture.keys.state, state?.text as string);
    return memory;
  },
};

const ids = (tasks: readonly { id: string }[]) => tasks.map((task) => task.id);

describe.each(Object.keys(stores))('reading the task list on the %s', (storeName) => {
  let reader: TaskList;
  let writer: TaskList;
  let pause: ReturnType<typeof withPauseAfterListing>;
  beforeEach(async () => {
    const store = await (stores[storeName] as () => Promise<TeamkitStore>)();
    pause = withPauseAfterListing(store);
    const run = { home: fixture.home, runId: fixture.runId };
    reader = createTaskList({ ...run, store: pause.store });
    writer = createTaskList({ ...run, store });
    await writer.createTask('lead', { subject: 'first', description: '' });
    await writer.createTask('lead', { subject: 'second', description: '', blockedBy: ['1'] });
  });

  it('sees the tasks as they are when it reads them, not as they were when it listed them', async () => {
    expect(ids(await reader.readyTasks())).toEqual(['1']);
    pause.onNextListing(async () => {
      await writer.claimTask('writer', '1');
    });
    expect(await reader.readyTasks()).toEqual([]);
    pause.onNextListing(async () => {
      await writer.deleteTask('lead', '2');
    });
    expect(ids((await reader.listTasks()).tasks)).toEqual(['1']);
    expect((await reader.getTask('1')).owner).toBe('writer');
  });

  it('gives each caller its own copy: changing a task it got changes no later read', async () => {
    const unchanged = expect.objectContaining({ id: '1', status: 'pending', blockedBy: [] });
    // The first read validates the task, the next ones find the same text again.
    for (let read = 0; read < 3; read += 1) {
      const ready = await reader.readyTasks();
      expect(ready).toEqual([unchanged]);
      const [first] = ready as [Task];
      first.status = 'completed';
      first.blockedBy.push('2');
    }
    expect((await reader.listTasks()).tasks.find((task) => task.id === '2')?.blockedBy).toEqual([
      '1',
    ]);
  });
});

describe('reading the task list on the file store', () => {
  let tasks: TaskList;
  beforeEach(async () => {
    tasks = createTaskList({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    await tasks.createTask('lead', { subject: 'first', description: '' });
    await tasks.createTask('lead', { subject: 'second', description: '', blockedBy: ['1'] });
  });

  it('reads the newest revision when a stalled writer publishes an older one late', async () => {
    const pending = fs.statSync(fixture.paths.task('1')).ino;
    await tasks.claimTask('writer', '1');
    // A writer frozen before its publish renames the task as it was over the newest: the
    // revision links keep that older revision, so take it from there.
    const revisions = path.join(fixture.paths.tasks, '.rev');
    const link = fs
      .readdirSync(revisions)
      .find((name) => fs.statSync(path.join(revisions, name)).ino === pending);
    const older = path.join(revisions, link as string);
    const late = path.join(fixture.paths.tasks, 'late-publish');
    fs.linkSync(older, late);
    fs.renameSync(late, fixture.paths.task('1'));
    expect(JSON.parse(fs.readFileSync(fixture.paths.task('1'), 'utf8')).status).toBe('pending');
    expect(await tasks.readyTasks()).toEqual([]);
    expect((await tasks.listTasks()).tasks[0]).toMatchObject({
      status: 'claimed',
      owner: 'writer',
    });
  });

  it('validates a task again when its file changes, and reports one corrupted after it was read', async () => {
    expect(ids(await tasks.readyTasks())).toEqual(['1']);
    // Task 2's text under task 1's name: valid JSON and schema, but not task 1.
    fs.copyFileSync(fixture.paths.task('2'), fixture.paths.task('1'));
    const swapped = await tasks.listTasks();
    expect(ids(swapped.tasks)).toEqual(['2']);
    expect(swapped.problems).toEqual([
      expect.objectContaining({ code: 'CORRUPT_DOCUMENT', path: fixture.keys.task('1') }),
    ]);
    fs.writeFileSync(fixture.paths.task('1'), '{"torn');
    expect(await tasks.readyTasks()).toEqual([]);
    expect((await tasks.listTasks()).problems).toEqual([
      expect.objectContaining({ code: 'CORRUPT_DOCUMENT', path: fixture.keys.task('1') }),
    ]);
  });
});
