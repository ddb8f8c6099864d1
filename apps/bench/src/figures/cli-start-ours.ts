import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NotAvailable, notAvailable } from '../not-available.js';

/** A command line to time, as an argument array (never a shell string). */
export interface TimedCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

function workspaceRoot(): string | undefined {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(folder, 'pnpm-workspace.yaml'))) return folder;
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

/** The built `team` bin of this workspace, or `undefined` when it is not built. */
export function teamCliBin(): string | undefined {
  const root = workspaceRoot();
  return root === undefined ? undefined : teamBin(root);
}

function teamBin(root: string): string | undefined {
  const manifestPath = path.join(root, 'apps', 'team-cli', 'package.json');
  if (!existsSync(manifestPath)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.team;
  if (bin === undefined) return undefined;
  const resolved = path.join(root, 'apps', 'team-cli', bin);
  return existsSync(resolved) ? resolved : undefined;
}

/**
 * `team run status --json` against an empty Teamkit home in `home`, run by the current
 * Node. Available once the workspace's team CLI is built and answers that command with
 * JSON and exit code 0; until then {@link NotAvailable} says what is missing.
 */
export function resolveOursCliCommand(home: string): TimedCommand | NotAvailable {
  const root = workspaceRoot();
  const bin = root === undefined ? undefined : teamBin(root);
  if (bin === undefined) return notAvailable('the team CLI is not built (no `team` bin found)');
  const timed: TimedCommand = {
    command: process.execPath,
    args: [bin, 'run', 'status', '--json'],
    env: { ...process.env, TEAMKIT_HOME: home },
  };
  const probe = spawnSync(timed.command, timed.args, { env: timed.env, encoding: 'utf8' });
  if (probe.status !== 0) {
    const firstLine = (probe.stderr ?? '').trim().split('\n')[0] ?? '';
    return notAvailable(
      `\`team run status --json\` exits ${probe.status ?? probe.signal}${firstLine ? `: ${firstLine}` : ''}`,
    );
  }
  try {
    JSON.parse(probe.stdout);
  } catch {
    return notAvailable('`team run status --json` does not print JSON yet');
  }
  return timed;
}
