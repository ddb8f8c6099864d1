import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createMemberClient } from '@teamkit/team-core';
import { createFileStore, runPaths } from '@teamkit/team-core/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunDelta } from '../protocol.js';
import { type SeededRun, seedRun } from '../test-support/seed-run.js';
import { openLiveRun } from './live-run.js';
import { createTeamkitRunSource, type RunReader } from './run-source.js';

let home: string;
let run: SeededRun;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-ui-live-'));
  run = await seedRun(home, ['writer']);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** A reader whose watcher events all go missing, as they do under bursts and renames. */
async function deafReader(): Promise<RunReader> {
  const reader = await createTeamkitRunSource({
    store: createFileStore({ root: home }),
    home,
  }).watchRun(run.runId);
  return { ...reader, watch: async () => async () => {} };
}

describe('the live view of a run', () => {
  it('heals what the watcher missed on the next reconcile', async () => {
    const lead = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
      member: 'lead',
    });
    const first = await lead.createTask({ subject: 'Before' });
    const live = await openLiveRun({ reader: await deafReader(), reconcileMs: 3_600_000 });
    try {
      const deltas: RunDelta[] = [];
      live.subscribe((delta) => deltas.push(delta));
      const writer = createMemberClient({
        store: createFileStore({ root: home }),
        home,
        runId: run.runId,
        member: 'writer',
      });
      await writer.claimTask(first.id);
      const second = await lead.createTask({ subject: 'After' });
      await lead.send({ to: 'writer', body: 'over to you' });
      await live.reconcile();
      const upserts = deltas.flatMap((delta) => delta.tasks?.upsert ?? []);
      expect(upserts.map((task) => [task.id, task.status]).sort()).toEqual([
        [first.id, 'claimed'],
        [second.id, 'pending'],
      ]);
      expect(deltas.flatMap((delta) => delta.messages ?? []).map((m) => m.body)).toEqual([
        'over to you',
      ]);
      expect(deltas.flatMap((delta) => delta.events ?? []).map((e) => e.type)).toEqual(
        expect.arrayContaining(['task.claimed', 'task.created', 'message.sent']),
      );
      const writerLine = deltas.flatMap((delta) => (delta.members ? [delta.members] : [])).at(-1);
      expect(writerLine?.find((member) => member.name === 'writer')?.unread).toBe(1);
      // A second reconcile with nothing new sends nothing.
      const before = deltas.length;
      await live.reconcile();
      expect(deltas.length).toBe(before);
    } finally {
      await live.close();
    }
  });

  it('survives a task file someone corrupted and keeps the card it had', async () => {
    const lead = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
      member: 'lead',
    });
    const task = await lead.createTask({ subject: 'Keep me' });
    const errors: unknown[] = [];
    const live = await openLiveRun({
      reader: await createTeamkitRunSource({
        store: createFileStore({ root: home }),
        home,
      }).watchRun(run.runId),
      reconcileMs: 3_600_000,
      onError: (error) => errors.push(error),
    });
    try {
      await writeFile(runPaths(home, run.runId).task(task.id), '{"torn":');
      await live.reconcile();
      expect(live.snapshot().tasks.find((card) => card.id === task.id)?.subject).toBe('Keep me');
      expect(errors.length).toBeGreaterThan(0);
      await lead.createTask({ subject: 'Still live' });
      await live.reconcile();
      expect(live.snapshot().tasks.map((card) => card.subject)).toContain('Still live');
    } finally {
      await live.close();
    }
  });

  it('turns a file change into a delta through the watcher alone', async () => {
    const lead = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
      member: 'lead',
    });
    const live = await openLiveRun({
      reader: await createTeamkitRunSource({
        store: createFileStore({ root: home }),
        home,
      }).watchRun(run.runId),
      reconcileMs: 3_600_000,
    });
    try {
      const seen = new Promise<RunDelta>((resolve) =>
        live.subscribe((delta) => {
          if (delta.tasks?.upsert.some((task) => task.subject === 'Watched')) resolve(delta);
        }),
      );
      await lead.createTask({ subject: 'Watched' });
      const delta = await seen;
      expect(delta.tasks?.remove).toEqual([]);
    } finally {
      await live.close();
    }
  });

  it('reads each task once when it opens, and again only when its file changed', async () => {
    const lead = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
      member: 'lead',
    });
    const writer = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
      member: 'writer',
    });
    const created = [];
    for (let index = 0; index < 20; index += 1)
      created.push(await lead.createTask({ subject: `Task ${index}` }));
    const [early, late] = created;
    const reader = await deafReader();
    let reads = 0;
    const counting: RunReader = {
      ...reader,
      async readTask(id) {
        reads += 1;
        return reader.readTask(id);
      },
      async readTasks() {
        // One task changes after its stamp was taken and before the first read sees it,
        // and one after the first read, before any watcher runs: both must show.
        await writer.claimTask(early?.id ?? '');
        const listing = await reader.readTasks();
        await writer.claimTask(late?.id ?? '');
        return listing;
      },
    };
    const live = await openLiveRun({ reader: counting, reconcileMs: 3_600_000 });
    try {
      expect(live.snapshot().tasks.find((task) => task.id === early?.id)?.status).toBe('claimed');
      await live.reconcile();
      await live.reconcile();
      const cards = live.snapshot().tasks;
      expect(cards.find((task) => task.id === late?.id)?.status).toBe('claimed');
      expect(cards).toHaveLength(20);
      // The two tasks that changed after their stamps, and no other, were read again.
      expect(reads).toBe(2);
    } finally {
      await live.close();
    }
  });

  it("lists each member's first message, whose inbox folder appears with it, through the watcher", async () => {
    const crowd = await seedRun(
      home,
      Array.from({ length: 12 }, (_, index) => `member-${index + 1}`),
    );
    const lead = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: crowd.runId,
      member: 'lead',
    });
    const live = await openLiveRun({
      reader: await createTeamkitRunSource({
        store: createFileStore({ root: home }),
        home,
      }).watchRun(crowd.runId),
      reconcileMs: 3_600_000,
    });
    try {
      const bodies = new Set<string>();
      live.subscribe((delta) => {
        for (const message of delta.messages ?? []) bodies.add(message.body);
      });
      // Once a task made now shows, the watcher is running.
      await lead.createTask({ subject: 'Watcher up' });
      await expect
        .poll(() => live.snapshot().tasks.some((task) => task.subject === 'Watcher up'))
        .toBe(true);
      const members = crowd.members.slice(1);
      for (const member of members) await lead.send({ to: member, body: `hello ${member}` });
      await expect.poll(() => bodies.size, { timeout: 30_000 }).toBe(members.length);
    } finally {
      await live.close();
    }
  });
});
