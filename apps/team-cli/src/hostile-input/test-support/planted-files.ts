import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliResult } from '../../test-support/run-cli.js';

/** Where a planted-file row plants: the run folder, a project folder, a decoy outside the home. */
export interface PlantTarget {
  home: string;
  runId: string;
  /** `runtime/<run>` */
  runFolder: string;
  project: string;
  /** A folder outside the home that must stay byte-for-byte unchanged (links point here). */
  decoy: string;
  /** The repository the run works in. */
  repo: string;
}

/** One kind of hostile file, planted in one place of a run or project. */
export interface PlantedFileRow {
  name: string;
  /** Plants the file; may resolve to an undo run after the commands (a socket to close). */
  plant(target: PlantTarget): Promise<void | (() => Promise<void>)>;
  /**
   * Extra expectations on some commands' results, by command name (see COMMANDS): a
   * listing that must report the planted file as a problem, say.
   */
  expect?: Partial<Record<string, (result: CliResult) => void>>;
}

/** A JSON document nested `depth` levels deep: far below the size cap, deadly to a recursive parser. */
export function deeplyNested(depth: number): string {
  return `{"teams": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

/** Expects a listing's problems (or a status's) to name a path matching `pattern`. */
export const reportsProblem = (pattern: RegExp) => (result: CliResult) => {
  const problems = (result.json().problems ??
    (result.json().status as { problems?: unknown })?.problems) as
    | { path: string; code: string }[]
    | undefined;
  if (!problems?.some((problem) => pattern.test(problem.path))) {
    throw new Error(`expected a problem naming ${pattern} in ${result.stdout}`);
  }
};

/**
 * The planted-file rows of the hostile-input suite. Every command of COMMANDS runs against
 * each row and must end within its timeout with one JSON document that is either a
 * success or a typed error (never `INTERNAL`), and nothing outside the home may change.
 * Every other kind (links, FIFOs, sockets, folders in place of files, device links,
 * unreadable, empty and huge files, at every level of a run) is in planted-kinds.ts.
 */
export const PLANTED_FILES: readonly PlantedFileRow[] = [
  { name: 'nothing planted (the baseline)', plant: async () => {} },
  {
    name: 'a torn task file',
    plant: ({ runFolder }) => writeFile(path.join(runFolder, 'tasks', '7.json'), '{"version":1,'),
    expect: {
      'task list': reportsProblem(/7\.json$/),
      board: reportsProblem(/7\.json$/),
      'run status <run>': reportsProblem(/7\.json$/),
    },
  },
  {
    name: 'a task file of another schema',
    plant: ({ runFolder }) =>
      writeFile(path.join(runFolder, 'tasks', '8.json'), '{"version":1,"id":"8","owner":[]}'),
    expect: { 'task list': reportsProblem(/8\.json$/) },
  },
  {
    name: 'a message that is not JSON',
    plant: async ({ runFolder }) => {
      await mkdir(path.join(runFolder, 'inboxes', 'user'), { recursive: true });
      await writeFile(path.join(runFolder, 'inboxes', 'user', `${randomUUID()}.json`), 'garbage');
    },
    expect: { inbox: reportsProblem(/inboxes\/user\/[0-9a-f-]+\.json$/) },
  },
  {
    name: 'a torn last line in events.jsonl',
    plant: ({ runFolder }) => appendFile(path.join(runFolder, 'events.jsonl'), '{"torn'),
  },
  {
    name: 'a project config nested 50,000 levels deep',
    plant: async ({ project }) => {
      await mkdir(path.join(project, '.teamkit'), { recursive: true });
      await writeFile(path.join(project, '.teamkit', 'config.json'), deeplyNested(50_000));
    },
    expect: {
      'teams --project': (result) => {
        const warnings = JSON.stringify(result.json().warnings);
        if (!/more than 64 levels deep/.test(warnings))
          throw new Error(`no depth warning: ${warnings}`);
      },
    },
  },
];

/**
 * How many rows of PLANTED_FILES, from the first, `pnpm test` runs (every-command.test.ts);
 * the rest run in `pnpm test:hostile` (every-command.hostile.test.ts).
 */
export const QUICK_ROWS = 2;
