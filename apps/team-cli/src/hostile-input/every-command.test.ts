import { afterAll, describe, it } from 'vitest';
import { checkRow, worlds } from './test-support/check-row.js';
import { HAS_PROC } from './test-support/hostile-run.js';
import { PLANTED_FILES } from './test-support/planted-files.js';

// Every command of COMMANDS against every planted-file row of PLANTED_FILES (see
// check-row.ts). The rows for every kind of planted file at every level of a run are in
// planted-kinds.hostile.test.ts (`pnpm test:hostile`).

afterAll(async () => {
  for (const world of worlds) await world.cleanup();
}, 300_000);

describe.skipIf(!HAS_PROC)('every command against every planted file', () => {
  for (const row of PLANTED_FILES) {
    it.concurrent(
      `${row.name}: every command ends with JSON and a typed outcome`,
      () => checkRow(row),
      600_000,
    );
  }
});
