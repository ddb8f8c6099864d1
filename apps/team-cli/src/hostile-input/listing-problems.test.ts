import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostileWorld, type HostileWorld } from './test-support/hostile-run.js';

// Issue 19 item 7: listings used to drop what they could not read without a word. Every
// listing command now shows each unreadable task, message or run state, in text and JSON.
let world: HostileWorld;
let runId: string;

beforeAll(async () => {
  world = await createHostileWorld();
  runId = await world.startRun('sleep 600');
  const run = path.join(world.home, 'runtime', runId);
  await mkdir(path.join(run, 'tasks'), { recursive: true });
  await writeFile(path.join(run, 'tasks', '7.json'), '{"version":1,');
  // Outside a member, `team inbox` reads the user's own inbox.
  await mkdir(path.join(run, 'inboxes', 'user'), { recursive: true });
  await writeFile(path.join(run, 'inboxes', 'user', `${randomUUID()}.json`), 'garbage');
  const broken = path.join(world.home, 'runtime', randomUUID());
  await mkdir(broken);
  await writeFile(path.join(broken, 'state.json'), '{"version":1,"runId":');
}, 60_000);
afterAll(async () => {
  await world?.cleanup();
}, 120_000);

describe('listings show what they could not read', () => {
  for (const [name, args, where] of [
    ['task list', (run: string) => ['task', 'list', run], /tasks\/7\.json/],
    ['board', (run: string) => ['board', run], /tasks\/7\.json/],
    ['inbox', (run: string) => ['inbox', run], /inboxes\/user\/[0-9a-f-]+\.json/],
    ['run status <run>', (run: string) => ['run', 'status', run], /tasks\/7\.json/],
    ['dashboard --once', (run: string) => ['dashboard', run, '--once'], /tasks\/7\.json/],
    ['run list', () => ['run', 'list'], /state\.json/],
    ['run status', () => ['run', 'status'], /state\.json/],
  ] as const) {
    it(`${name}: a problem line in text, a problems entry in JSON`, async () => {
      const text = await world.team(args(runId));
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/problem CORRUPT_DOCUMENT: /);
      const json = await world.team([...args(runId), '--json']);
      const document = json.json() as { problems?: unknown; status?: { problems?: unknown } };
      expect(JSON.stringify(document.problems ?? document.status?.problems)).toMatch(where);
    }, 60_000);
  }
});
