import { describe } from 'vitest';
import { useTempFolder } from './test-support/workers.js';
import { itSurvivesWriterKills } from './test-support/writer-kills.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

describe('writeFileAtomically', () => {
  // 200 worker processes, one after another per lane: minutes on a busy machine.
  itSurvivesWriterKills(() => folder, 50, 900_000);
});
