import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set in the environment of the stop a member hands to its own child (see below). */
export const DETACHED_STOP_VARIABLE = 'TEAMKIT_DETACHED_STOP';

/**
 * Runs `team <args>` in a child that leads its own process group, relays what it prints,
 * and resolves with its exit code. A lead that stops its own run is in the process group
 * the stop signals; run in that group, the stop would end itself half-way and leave the
 * run `deleting`. The child keeps the caller's environment, so it is the same member.
 */
export function runDetached(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin.js');
  const child = spawn(process.execPath, [bin, ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, [DETACHED_STOP_VARIABLE]: '1' },
  });
  child.stdout?.pipe(process.stdout);
  child.stderr?.pipe(process.stderr);
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('close', (code) => resolve(code ?? 1));
  });
}
