import { afterAll, describe, it } from 'vitest';
import { checkRow, worlds } from './test-support/check-row.js';
import { HAS_PROC } from './test-support/hostile-run.js';
import { PLANTED_FILES, QUICK_ROWS } from './test-support/planted-files.js';

// Every command of COMMANDS against the planted-file rows of PLANTED_FILES that
// every-command.test.ts leaves to `pnpm test:hostile` (see check-row.ts).

afterAll(async () => {
  for (const world of worlds) await world.cleanup();
}, 300_000);

describe.skipIf(!HAS_PROC)('every command against every planted file', () => {
  for (const row of PLANTED_FILES.slice(QUICK_ROWS)) {
    it.concurrent(
      `${row.name}: every command ends with JSON and a typed outcome`,
      () => checkRow(row),
      600_000,
    );
  }
});
