import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { CliResult } from '../../test-support/run-cli.js';
import { COMMANDS, type CommandTargets, type TableCommand } from './command-table.js';
import { createHostileWorld, type HostileWorld } from './hostile-run.js';
import type { PlantedFileRow } from './planted-files.js';

// The machinery of the cross-cutting hostile-input suite over the built `team` command:
// every command of COMMANDS against one planted-file row, each with a timeout. A command
// must end (or, for watch and supervise, keep printing valid JSON until stopped), print one
// JSON document that is a success or a typed error, and change nothing outside the home.

/** How long one command may take before the suite calls it hung (not a speed check). */
const COMMAND_TIMEOUT_MS = 30_000;
/** How long a command that runs until stopped is left running. */
const UNTIL_STOPPED_MS = 3_000;
/** How many reading commands of a row run at once. */
const READERS_AT_ONCE = 3;
/** How many rows (each with a run of its own) run at once. */
const ROWS_AT_ONCE = 2;

let freeRowSlots = ROWS_AT_ONCE;
const waitingRows: (() => void)[] = [];
/** Runs `fn` once fewer than ROWS_AT_ONCE rows are running. */
export async function inRowSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (freeRowSlots === 0) await new Promise<void>((resolve) => waitingRows.push(resolve));
  else freeRowSlots -= 1;
  try {
    return await fn();
  } finally {
    const next = waitingRows.shift();
    if (next === undefined) freeRowSlots += 1;
    else next();
  }
}

// Each row gets a world (home, repository) of its own: rows run side by side, and home-wide
// commands (run sweep, worktree prune) of one must not reach another's run.
/** Every world a row made, for the test file to clean up after all rows. */
export const worlds: HostileWorld[] = [];

/**
 * Every file under `folder` with its content, to prove nothing outside the home changed
 * (git's own folder aside: worktrees are registered there by design).
 */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (path.relative(folder, file).split(path.sep)[0] === '.git') continue;
    files[path.relative(folder, file)] = await readFile(file, 'utf8');
  }
  return files;
}

function judge(command: TableCommand, result: CliResult): string | undefined {
  const lines = result.stdout.split('\n').filter((line) => line !== '');
  if (command.runs === 'until-stopped') {
    for (const line of lines) {
      try {
        JSON.parse(line);
      } catch {
        return `printed a line that is not JSON: ${line.slice(0, 200)}`;
      }
    }
    if (result.timedOut || result.code === 0) return undefined;
    // Ending early is fine when what it printed last is a typed refusal (a planted link).
    const last = lines.length === 0 ? undefined : JSON.parse(lines[lines.length - 1] as string);
    const code = (last as { ok?: boolean; error?: { code?: string } } | undefined)?.error?.code;
    return last?.ok === false && code !== undefined && code !== 'INTERNAL'
      ? undefined
      : `ended with ${result.code}: ${result.stdout}${result.stderr}`;
  }
  if (result.timedOut) return `did not end within ${COMMAND_TIMEOUT_MS} ms (hung)`;
  if (lines.length !== 1) return `printed ${lines.length} lines instead of one JSON document`;
  let document: { ok?: boolean; error?: { code?: string } };
  try {
    document = JSON.parse(lines[0] as string);
  } catch {
    return `printed something that is not JSON: ${result.stdout.slice(0, 200)}`;
  }
  if (document.ok === true) return undefined;
  const code = document.error?.code;
  if (code === undefined || code === 'INTERNAL') return `failed untyped: ${lines[0]}`;
  return undefined;
}

/**
 * Runs every command of COMMANDS against `row` in a world (home, repository, run) of its
 * own, and expects no failure and a decoy tree, the repository and a project outside the
 * home byte-for-byte unchanged.
 */
export function checkRow(row: PlantedFileRow): Promise<void> {
  return inRowSlot(async () => {
    const world = await createHostileWorld();
    worlds.push(world);
    const runId = await world.startRun('sleep 600');
    const w1 = world.env(runId, 'w1');
    const created = await world.team(['task', 'create', runId, 'A task', '--json']);
    const taskId = (created.json().task as { id: string }).id;
    const sent = await world.team(['send', '--to', 'user', 'for the user', '--json'], w1);
    const messageId = sent.json().messageId as string;
    const project = path.join(world.root, `project-${runId.slice(0, 8)}`);
    await mkdir(project);
    const decoy = path.join(world.root, 'decoy');
    await mkdir(decoy, { recursive: true });
    await writeFile(path.join(decoy, 'keep.txt'), 'outside the home\n');
    const unplant = await row.plant({
      home: world.home,
      runId,
      runFolder: path.join(world.home, 'runtime', runId),
      project,
      decoy,
      repo: world.repo,
    });
    const outside = async () => ({
      repo: await snapshot(world.repo),
      decoy: await snapshot(decoy),
      project: await snapshot(project),
    });
    const before = await outside();
    const targets: CommandTargets = { runId, taskId, messageId, project };
    const failures: string[] = [];
    const check = async (command: TableCommand) => {
      const timeout = command.runs === 'until-stopped' ? UNTIL_STOPPED_MS : COMMAND_TIMEOUT_MS;
      const result = await world.team([...command.args(targets), '--json'], {}, timeout);
      const failure = judge(command, result);
      if (failure !== undefined) failures.push(`${command.name}: ${failure}`);
      try {
        row.expect?.[command.name]?.(result);
      } catch (error) {
        failures.push(`${command.name}: ${(error as Error).message}`);
      }
    };
    // Commands that only read run a few at a time; the rest one after another, in order.
    const reading = COMMANDS.filter((command) => command.destructive !== true);
    for (let index = 0; index < reading.length; index += READERS_AT_ONCE) {
      await Promise.all(reading.slice(index, index + READERS_AT_ONCE).map(check));
    }
    for (const command of COMMANDS.filter((entry) => entry.destructive === true)) {
      await check(command);
    }
    await unplant?.();
    expect(failures.sort()).toEqual([]);
    expect(await outside()).toEqual(before);
  });
}
