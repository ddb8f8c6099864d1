import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { REQUIRE_PROGRAMS_ENV } from '../agent-cli/find-agent-cli.js';

/** Whether this machine lets a test make network namespaces, or why not. */
export type NetworkNamespacesCheck = { found: true; ip: string } | { found: false; reason: string };

/** Options of {@link findNetworkNamespaces}. */
export interface FindNetworkNamespacesOptions {
  /** Throw instead of answering `found: false`; defaults to `TEAMKIT_TEST_REQUIRE_PROGRAMS=1`. */
  required?: boolean;
  env?: NodeJS.ProcessEnv;
}

// Debian installs `ip` in /usr/sbin (and /sbin), not on every user's PATH.
const EXTRA_FOLDERS = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

function findIp(env: NodeJS.ProcessEnv): string | undefined {
  const folders = [...(env.PATH ?? '').split(delimiter), ...EXTRA_FOLDERS].filter(Boolean);
  for (const folder of new Set(folders)) {
    const candidate = join(folder, 'ip');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Checks that `ip netns` (iproute2) is installed and permitted, by making and removing one
 * namespace. Tests that need several "machines" on one box skip when it is not, saying
 * why; with `TEAMKIT_TEST_REQUIRE_PROGRAMS=1` (CI, which runs as root) they fail instead.
 */
export function findNetworkNamespaces(
  options: FindNetworkNamespacesOptions = {},
): NetworkNamespacesCheck {
  const env = options.env ?? process.env;
  const required = options.required ?? env[REQUIRE_PROGRAMS_ENV] === '1';
  const fail = (reason: string): NetworkNamespacesCheck => {
    if (required) throw new Error(`${REQUIRE_PROGRAMS_ENV}=1 but ${reason}`);
    return { found: false, reason };
  };
  const ip = findIp(env);
  if (ip === undefined)
    return fail('`ip` is not installed (apt-get install -y iproute2) to make network namespaces');
  const probe = `tkprobe${process.pid}`;
  const added = spawnSync(ip, ['netns', 'add', probe], { encoding: 'utf8', timeout: 10_000 });
  if (added.status !== 0)
    return fail(
      `\`ip netns add\` is not permitted here (it needs root or CAP_SYS_ADMIN): ${added.stderr.trim() || `exit ${added.status}`}`,
    );
  spawnSync(ip, ['netns', 'delete', probe], { timeout: 10_000 });
  return { found: true, ip };
}
