import { afterAll, describe, it } from 'vitest';
import { checkRow, worlds } from './test-support/check-row.js';
import { HAS_PROC } from './test-support/hostile-run.js';
import { PLANTED_FILES, QUICK_ROWS } from './test-support/planted-files.js';

// Every command of COMMANDS against the first planted-file rows of PLANTED_FILES (see
// check-row.ts): the baseline and a torn task file. The other rows are in
// every-command.hostile.test.ts, and the rows for every kind of planted file at every level
// of a run in planted-kinds.hostile.test.ts (`pnpm test:hostile`).

afterAll(async () => {
  for (const world of worlds) await world.cleanup();
}, 300_000);

describe.skipIf(!HAS_PROC)('every command against every planted file', () => {
  for (const row of PLANTED_FILES.slice(0, QUICK_ROWS)) {
    it.concurrent(
      `${row.name}: every command ends with JSON and a typed outcome`,
      () => checkRow(row),
      600_000,
    );
  }
});
