import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Task } from '@teamkit/team-core';
import { MessageSchema, RuntimeStateSchema, TaskSchema } from '@teamkit/team-core/schema';
import { runKeys, runPaths, type TeamkitStore } from '@teamkit/team-core/storage';

/** The documents of a run the invariants are judged on, and what was wrong with the rest. */
export interface RunDocuments {
  tasks: Map<string, Task>;
  /** `state.json` as read, when it parsed. */
  stateText: string | undefined;
  /** Torn, invalid or unowned documents. */
  problems: string[];
}

/** The schema of a document at `relative` (a `/`-separated path inside the run), or none. */
function schemaOf(relative: string) {
  if (relative === 'state.json') return RuntimeStateSchema;
  if (relative.startsWith('tasks/')) return TaskSchema;
  if (relative.startsWith('inboxes/')) return MessageSchema;
  return undefined;
}

function judge(relative: string, text: string, documents: RunDocuments): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    documents.problems.push(`${relative} is torn: ${(error as Error).message}`);
    return;
  }
  const schema = schemaOf(relative);
  if (schema === undefined) {
    documents.problems.push(`${relative} is a document nobody owns`);
    return;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    documents.problems.push(`${relative} fails its schema: ${parsed.error.issues[0]?.message}`);
    return;
  }
  if (schema === TaskSchema) documents.tasks.set((parsed.data as Task).id, parsed.data as Task);
  if (relative === 'state.json') documents.stateText = JSON.stringify(value);
}

async function walkJson(folder: string, found: string[]): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.endsWith('.lock') && !entry.name.endsWith('.takeover')) {
        await walkJson(full, found);
      }
    } else if (entry.name.endsWith('.json')) {
      found.push(full);
    }
  }
}

/** The file store's own check: every `.json` file of the run's folder parses against its schema. */
export async function readRunFiles(home: string, runId: string): Promise<RunDocuments> {
  const documents: RunDocuments = { tasks: new Map(), stateText: undefined, problems: [] };
  const root = runPaths(home, runId).root;
  const files: string[] = [];
  await walkJson(root, files);
  for (const file of files) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    judge(relative, await readFile(file, 'utf8'), documents);
  }
  return documents;
}

/**
 * The run's tasks as readers see them: the newest revision of each, read through the
 * store. On the file store a task's file may lag its newest revision for a moment (a
 * writer stalled between its commit and its publish), so the files are judged for
 * parsing only and the tasks by what the store reads.
 */
export async function readTaskHeads(
  store: TeamkitStore,
  runId: string,
): Promise<{ tasks: Map<string, Task>; problems: string[] }> {
  const keys = runKeys(runId);
  const heads = { tasks: new Map<string, Task>(), problems: [] as string[] };
  const names = (await store.list(keys.tasks)).filter((name) => name.endsWith('.json'));
  await inBatches(names, async (name) => {
    let stored: Awaited<ReturnType<TeamkitStore['read']>>;
    try {
      stored = await store.read(`${keys.tasks}/${name}`);
    } catch (error) {
      heads.problems.push(`tasks/${name} cannot be read through the store: ${String(error)}`);
      return;
    }
    if (stored === undefined) return;
    // A head that does not parse is the file itself (written without the store), which
    // the walk of the files already reports.
    judge(`tasks/${name}`, stored.text, { tasks: heads.tasks, stateText: undefined, problems: [] });
  });
  return heads;
}

/** Runs `work` over `items`, `width` at a time (a networked store answers them in parallel). */
async function inBatches<T>(
  items: readonly T[],
  work: (item: T) => Promise<void>,
  width = 32,
): Promise<void> {
  for (let start = 0; start < items.length; start += width) {
    await Promise.all(items.slice(start, start + width).map(work));
  }
}

/**
 * The same check for a store without files: the run's values as the store lists them
 * (`state.json`, `tasks/*.json`, any other `.json` is unowned), and every message entry's
 * text, read once (entries are immutable, so `parsedEntries` remembers the ids already
 * judged across checks of one run).
 */
export async function readRunDocuments(
  store: TeamkitStore,
  runId: string,
  parsedEntries: Set<string>,
): Promise<RunDocuments> {
  const documents: RunDocuments = { tasks: new Map(), stateText: undefined, problems: [] };
  const keys = runKeys(runId);
  const values: string[] = [];
  for (const name of await store.list(keys.root)) {
    if (name.endsWith('.json')) values.push(name);
  }
  for (const name of await store.list(keys.tasks)) {
    if (name.endsWith('.json')) values.push(`tasks/${name}`);
  }
  await inBatches(values, async (relative) => {
    const stored = await store.read(`${keys.root}/${relative}`);
    // Listed a moment after its removal: nothing left to judge.
    if (stored !== undefined) judge(relative, stored.text, documents);
  });
  for (const member of await store.list(keys.inboxes)) {
    if (!/^[a-z0-9][a-z0-9-]*$/i.test(member)) continue;
    const inbox = keys.inbox(member);
    for (const state of ['unread', 'reserved', 'processed'] as const) {
      const fresh = (await store.listEntries(inbox, state)).filter(
        ({ id }) => !parsedEntries.has(id),
      );
      await inBatches(fresh, async ({ id }) => {
        const text = await store.readEntry(inbox, id, state);
        // Moved on since it was listed: judged where it is read next time.
        if (text === undefined) return;
        judge(`inboxes/${member}/${id}.json`, text, documents);
        parsedEntries.add(id);
      });
    }
  }
  return documents;
}
