import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { CLI_BIN, type CliResult } from '../../test-support/run-cli.js';

const FIXTURE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '__fixtures__',
  'member-shell.mjs',
);

/** The `--agent-cmd` that makes every member a member shell answering in `folder`. */
export function memberShellCommand(folder: string): string {
  const quoted = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;
  return [process.execPath, FIXTURE, CLI_BIN, folder].map(quoted).join(' ').concat(' {member}');
}

/** What a command inside a member keeps or sets of the `TEAMKIT_*` variables. */
export interface InsideMemberOptions {
  /** Variables to keep from the member's environment (default none: all removed). */
  keep?: string[];
  /** Variables to set (a forged name, say). */
  set?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Runs `team <args>` as a child of the member's own process (the member shell), so it
 * descends from the member's recorded process whatever its environment says.
 */
export async function runInsideMember(
  folder: string,
  member: string,
  args: string[],
  options: InsideMemberOptions = {},
): Promise<CliResult> {
  const result = path.join(folder, `${member}.result.json`);
  await rm(result, { force: true });
  // Written aside and renamed into place, so the shell never reads half a request.
  const request = path.join(folder, `${member}.request.json`);
  await writeFile(
    `${request}.tmp`,
    JSON.stringify({ args, keep: options.keep ?? [], set: options.set ?? {} }),
  );
  await rename(`${request}.tmp`, request);
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (!existsSync(result)) {
    if (Date.now() > deadline) throw new Error(`${member} did not run team ${args.join(' ')}`);
    await delay(50);
  }
  const { code, stdout, stderr } = JSON.parse(await readFile(result, 'utf8')) as {
    code: number;
    stdout: string;
    stderr: string;
  };
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}
