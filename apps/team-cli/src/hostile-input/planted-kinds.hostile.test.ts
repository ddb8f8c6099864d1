import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempHome, runCli } from '../test-support/run-cli.js';
import { checkRow, worlds } from './test-support/check-row.js';
import { HAS_PROC } from './test-support/hostile-run.js';
import { PLANTED_KINDS } from './test-support/planted-kinds.js';

// Every command against every kind of planted file at every level of a run (issue 19):
// links out of the home (files and folders), FIFOs, sockets, folders, device links,
// unreadable, empty, huge and torn files. Each command ends with a typed outcome, and the
// decoy tree the links point to stays byte-for-byte unchanged.

afterAll(async () => {
  for (const world of worlds) await world.cleanup();
}, 600_000);

describe.skipIf(!HAS_PROC)('every command against every planted kind', () => {
  for (const row of PLANTED_KINDS) {
    it.concurrent(
      `${row.name}: every command ends with JSON and a typed outcome`,
      () => checkRow(row),
      900_000,
    );
  }
});

describe('a Teamkit home that is a file', () => {
  it('gives every command a typed error', async () => {
    const { home, cleanup } = await createTempHome();
    try {
      const file = path.join(home, 'not-a-folder');
      await writeFile(file, 'a file\n');
      for (const args of [
        ['run', 'list'],
        ['run', 'status', '6f1c1b4e-0000-4000-8000-000000000000'],
        ['task', 'list', '6f1c1b4e-0000-4000-8000-000000000000'],
        ['run', 'sweep'],
      ]) {
        const result = await runCli([...args, '--home', file, '--json']);
        const document = JSON.parse(result.stdout) as { ok: boolean; error?: { code: string } };
        expect(document.ok, `${args.join(' ')}: ${result.stdout}`).toBe(false);
        expect(document.error?.code, `${args.join(' ')}: ${result.stdout}`).not.toBe('INTERNAL');
        expect(result.code).not.toBe(0);
      }
    } finally {
      await cleanup();
    }
  });
});
