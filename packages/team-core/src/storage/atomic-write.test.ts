import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { createFileAtomically, writeFileAtomically } from './atomic-write.js';
import { startWorker, useTempFolder } from './test-support/workers.js';
import { itSurvivesWriterKills } from './test-support/writer-kills.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

describe('writeFileAtomically', () => {
  it('replaces a file and creates missing parent folders', async () => {
    const target = path.join(folder, 'a', 'b', 'doc.json');
    await writeFileAtomically(target, 'one');
    await writeFileAtomically(target, Buffer.from('two'));
    expect(await readFile(target, 'utf8')).toBe('two');
    expect(await readdir(path.dirname(target))).toEqual(['doc.json']);
  });

  // A short run; atomic-write.slow.test.ts runs 200 kills (`pnpm test:slow`).
  itSurvivesWriterKills(() => folder, 10, 240_000);
});

describe('createFileAtomically', () => {
  it('refuses an existing file with ALREADY_EXISTS and leaves it and no temp file', async () => {
    const target = path.join(folder, 'doc.json');
    await writeFile(target, 'original');
    const error = await createFileAtomically(target, 'replacement').catch((caught) => caught);
    expect(isTeamkitError(error, 'ALREADY_EXISTS')).toBe(true);
    expect(error.details).toEqual({ path: target });
    expect(await readFile(target, 'utf8')).toBe('original');
    expect(await readdir(folder)).toEqual(['doc.json']);
  });

  it('lets exactly one of N racing processes create each file, never partial', async () => {
    const racers = 6;
    const rounds = 20;
    const raceFolder = path.join(folder, 'race');
    await mkdir(raceFolder);
    const ids = Array.from({ length: racers }, (_, index) => `w${index}`);
    const contentOf = (id: string, round: number) =>
      JSON.stringify({ id, round, payload: id.repeat(50_000) });
    const workers = ids.map((id) =>
      startWorker('create-race-worker.mjs', [raceFolder, String(rounds), id]),
    );
    await Promise.all(workers.map((worker) => worker.waitForLine((line) => line === 'ready')));
    for (const worker of workers) worker.send('go');

    // Read while they race: any file that is visible at all must be complete.
    const allExited = Promise.all(workers.map((worker) => worker.exited));
    let done = false;
    void allExited.then(() => {
      done = true;
    });
    const complete = new Set(
      ids.flatMap((id) => Array.from({ length: rounds }, (_, r) => contentOf(id, r))),
    );
    for (let pass = 0; pass < 10_000 && !done; pass += 1) {
      for (let round = 0; round < rounds; round += 1) {
        const text = await readFile(path.join(raceFolder, `file-${round}.json`), 'utf8').catch(
          () => undefined,
        );
        if (text === undefined) continue;
        expect(complete.has(text)).toBe(true);
      }
    }

    const exits = await allExited;
    expect(exits.every((exit) => exit.code === 0)).toBe(true);
    const results = workers.map(
      (worker) => JSON.parse(worker.stdout().trim().split('\n').pop() ?? '[]') as string[],
    );
    for (let round = 0; round < rounds; round += 1) {
      const outcomes = results.map((perWorker) => perWorker[round]);
      const winners = ids.filter((_, index) => outcomes[index] === 'won');
      expect(winners).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'ALREADY_EXISTS')).toHaveLength(racers - 1);
      const text = await readFile(path.join(raceFolder, `file-${round}.json`), 'utf8');
      expect(text).toBe(contentOf(winners[0] ?? '', round));
    }
    expect((await readdir(raceFolder)).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
  }, 60_000);
});
