import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { killWorker, startWorker } from './workers.js';

/** Checks a document written by atomic-writer-worker.mjs and returns its number. */
function numberOfValidDocument(text: string): number {
  const document = JSON.parse(text) as {
    version: number;
    n: number;
    payload: string;
    digest: string;
  };
  expect(document.version).toBe(1);
  expect(document.payload).toBe(
    String(document.n % 10).repeat(4_096 + ((document.n * 7_919) % 60_000)),
  );
  expect(createHash('sha256').update(document.payload).digest('hex')).toBe(document.digest);
  return document.n;
}

/**
 * Registers the test that SIGKILLs atomic-writer-worker.mjs at random moments in four lanes
 * of `trialsPerLane` writers each: the file on disk is always the old or the new document,
 * never a torn one. `folder` gives the test's temp folder.
 */
export function itSurvivesWriterKills(
  folder: () => string,
  trialsPerLane: number,
  timeoutMs: number,
): void {
  it(
    'leaves the old or the new document when the writer is SIGKILLed at random moments',
    async () => {
      const lanes = 4;
      let trials = 0;
      await Promise.all(
        Array.from({ length: lanes }, async (_, lane) => {
          const target = path.join(folder(), `lane-${lane}.json`);
          let next = 1;
          let warm = startWorker('atomic-writer-worker.mjs', [target]);
          for (let trial = 0; trial < trialsPerLane; trial += 1) {
            const worker = warm;
            await worker.waitForLine((line) => line === 'ready');
            if (trial + 1 < trialsPerLane) warm = startWorker('atomic-writer-worker.mjs', [target]);
            worker.send(String(next));
            await worker.waitForLine((line) => /^[0-9]+$/.test(line));
            await delay(Math.random() * 30);
            expect((await killWorker(worker)).signal).toBe('SIGKILL');
            const reported = worker
              .stdout()
              .split('\n')
              .filter((line) => /^[0-9]+$/.test(line))
              .map(Number);
            const lastReported = Math.max(...reported);
            const onDisk = numberOfValidDocument(await readFile(target, 'utf8'));
            expect([lastReported, lastReported + 1]).toContain(onDisk);
            next = onDisk + 1;
            trials += 1;
          }
        }),
      );
      expect(trials).toBe(lanes * trialsPerLane);
    },
    timeoutMs,
  );
}
