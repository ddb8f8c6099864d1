import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTask } from './parse-task.js';
import { createProcessProbe } from './process-probe.js';
import { plantTeam, useConfigDir } from './test-support/plant-team.js';
import {
  startWorkerProcess,
  useWorkerCleanup,
  type WorkerProcess,
} from './test-support/worker-process.js';

let configDir = '';
useConfigDir((folder) => {
  configDir = folder;
});
useWorkerCleanup();

const TEAM = 'session-c0ffee00';

/** Plants a team whose lead is this test process, so every worker judges it live. */
async function plantLiveTeam(): Promise<void> {
  const probe = createProcessProbe();
  const procStart = probe.startTimeOf(process.pid);
  await plantTeam(configDir, TEAM, {
    teammates: ['worker'],
    leadPid: process.pid,
    pidSpace: probe.pidSpace(),
    ...(procStart === undefined ? {} : { procStart }),
  });
}

async function finished(worker: WorkerProcess, name: string): Promise<string[]> {
  const code = await worker.exited;
  expect(code, `${name} failed: ${worker.stderr()}`).toBe(0);
  return worker.lines();
}

describe('Teamkit and Claude Code writing at the same time, in separate processes', () => {
  it('loses no inbox entry and leaves no torn inbox while a reader takes entries out', async () => {
    await plantLiveTeam();
    const inbox = path.join(configDir, 'teams', TEAM, 'inboxes', 'worker.json');
    const count = 40;
    const reader = startWorkerProcess('claude-stand-in.mjs', ['inbox-reader', inbox]);
    const writers = [
      startWorkerProcess('teamkit-writer.mjs', [
        'messages',
        configDir,
        TEAM,
        'worker',
        'teamkit-a',
        String(count),
      ]),
      startWorkerProcess('teamkit-writer.mjs', [
        'messages',
        configDir,
        TEAM,
        'worker',
        'teamkit-b',
        String(count),
      ]),
      startWorkerProcess('claude-stand-in.mjs', ['inbox-writer', inbox, 'claude-a', String(count)]),
      startWorkerProcess('claude-stand-in.mjs', ['inbox-writer', inbox, 'claude-b', String(count)]),
    ];
    const written = (
      await Promise.all(writers.map((worker, index) => finished(worker, `writer ${index}`)))
    )
      .flat()
      .filter((line) => line !== 'done');
    reader.send('stop');
    const taken = (await finished(reader, 'reader'))
      .filter((line) => line.startsWith('taken '))
      .map((line) => line.slice('taken '.length));
    const left = (JSON.parse(await readFile(inbox, 'utf8')) as { text: string }[]).map(
      (entry) => entry.text,
    );

    const expected = ['teamkit-a', 'teamkit-b', 'claude-a', 'claude-b'].flatMap((label) =>
      Array.from({ length: count }, (_, n) => `${label}-${n + 1}`),
    );
    expect(written.sort()).toEqual([...expected].sort());
    // Every entry arrived exactly once: taken by the reader or still waiting.
    expect([...taken, ...left].sort()).toEqual([...expected].sort());
    expect(taken.length).toBeGreaterThan(0);
    const leftovers = (await readdir(path.dirname(inbox))).filter((name) => name !== 'worker.json');
    expect(leftovers).toEqual([]);
  });

  it('gives every task its own id and leaves no torn task, while tasks are rewritten in place and read', async () => {
    await plantLiveTeam();
    const folder = path.join(configDir, 'tasks', TEAM);
    const count = 25;
    const updater = startWorkerProcess('claude-stand-in.mjs', ['task-updater', folder]);
    const reader = startWorkerProcess('teamkit-writer.mjs', ['reader', configDir, TEAM]);
    const writers = [
      startWorkerProcess('teamkit-writer.mjs', [
        'tasks',
        configDir,
        TEAM,
        'teamkit-a',
        String(count),
      ]),
      startWorkerProcess('teamkit-writer.mjs', [
        'tasks',
        configDir,
        TEAM,
        'teamkit-b',
        String(count),
      ]),
      startWorkerProcess('claude-stand-in.mjs', ['task-writer', folder, 'claude-a', String(count)]),
      startWorkerProcess('claude-stand-in.mjs', ['task-writer', folder, 'claude-b', String(count)]),
    ];
    const created = (
      await Promise.all(writers.map((worker, index) => finished(worker, `writer ${index}`)))
    )
      .flat()
      .filter((line) => line !== 'done')
      .map((line) => line.split(' ') as [string, string]);
    updater.send('stop');
    reader.send('stop');
    const updates = await finished(updater, 'updater');
    const reads = await finished(reader, 'reader');

    const total = 4 * count;
    const ids = created.map(([id]) => Number(id)).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: total }, (_, n) => n + 1));
    for (const [id, subject] of created) {
      const parsed = parseTask(JSON.parse(await readFile(path.join(folder, `${id}.json`), 'utf8')));
      expect(parsed.ok && parsed.task.subject, `task ${id}`).toBe(subject);
    }
    expect((await readdir(folder)).filter((name) => !/^[0-9]+\.json$/.test(name)).sort()).toEqual([
      '.lock',
    ]);
    // Torn reads of tasks rewritten in place were read again, never reported.
    expect(reads.filter((line) => line.startsWith('problem'))).toEqual([]);
    expect(reads.at(-1)).toMatch(/^reads [1-9]/);
    expect(updates.at(-1)).toMatch(/^updated [1-9]/);
  });
});
