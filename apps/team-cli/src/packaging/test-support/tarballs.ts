import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file (apps/team-cli/src/packaging/test-support). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

/** Every package the project publishes, by folder; `apps/bench` is private. */
export const PUBLISHED_PACKAGES = [
  'packages/team-core',
  'packages/agent-clis',
  'packages/claude-code',
  'packages/mcp',
  'packages/opencode',
  'packages/store-nats',
  'packages/test-harness',
  'packages/ui',
  'apps/team-cli',
] as const;

/** What a command printed and how it ended. */
export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program with an argument array (no shell), bounded by `timeoutMs`. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string },
): CommandResult {
  const result = spawnSync(command, [...args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 300_000,
    input: options.input ?? '',
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: `${result.stderr ?? ''}${result.error ? `\n${String(result.error)}` : ''}`,
  };
}

/** Describes a command's result for a failed assertion. */
export function describeCommand(label: string, result: CommandResult): string {
  return `${label} exited with ${result.status}\nstdout:\n${result.stdout.slice(-3000)}\nstderr:\n${result.stderr.slice(-3000)}`;
}

/** `pnpm` when it is on PATH, else the pinned release through npx (as CI runs it). */
export function pnpmCommand(): [string, string[]] {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return probe.status === 0 ? ['pnpm', []] : ['npx', ['-y', 'pnpm@12.4.2']];
}

/** One packed tarball. */
export interface Tarball {
  folder: string;
  file: string;
  bytes: number;
}

/**
 * Packs every published package with `pnpm pack` (which turns `workspace:*` into versions
 * and applies `publishConfig`) into `destination`, from the built `dist/` folders.
 */
export function packAll(destination: string): Tarball[] {
  const [pnpm, prefix] = pnpmCommand();
  const tarballs: Tarball[] = [];
  for (const folder of PUBLISHED_PACKAGES) {
    const before = new Set(readdirSync(destination));
    const result = run(pnpm, [...prefix, 'pack', '--pack-destination', destination], {
      cwd: join(REPO_ROOT, folder),
    });
    if (result.status !== 0) throw new Error(describeCommand(`pnpm pack in ${folder}`, result));
    const added = readdirSync(destination).filter((name) => !before.has(name));
    if (added.length !== 1) throw new Error(`pnpm pack in ${folder} made ${added.join(', ')}`);
    const file = join(destination, added[0] as string);
    tarballs.push({ folder, file, bytes: statSync(file).size });
  }
  return tarballs;
}
