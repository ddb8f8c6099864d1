import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { findNatsServer } from '@teamkit/test-harness';

const execGit = promisify(execFile);

/** Why the NATS tests of the CLI cannot run here, or `undefined` (throws under CI's `TEAMKIT_TEST_REQUIRE_PROGRAMS=1`). */
export function natsServerMissing(): string | undefined {
  const found = findNatsServer();
  if (found.found) return undefined;
  process.stderr.write(`skipping NATS CLI tests: ${found.reason}\n`);
  return found.reason;
}

/** A git repository with one commit, and (optionally) a clone of it: two machines' copies. */
export async function createRepoWithClone(
  folder: string,
): Promise<{ repo: string; clone: string }> {
  const repo = path.join(folder, 'repo');
  const clone = path.join(folder, 'repo-clone');
  const git = (cwd: string, args: string[]) =>
    execGit(
      'git',
      ['-c', 'user.name=teamkit-test', '-c', 'user.email=test@teamkit.invalid', ...args],
      { cwd },
    );
  await execGit('git', ['init', '-q', '-b', 'main', repo]);
  await writeFile(path.join(repo, 'README.md'), 'base\n');
  await git(repo, ['add', 'README.md']);
  await git(repo, ['commit', '-q', '-m', 'init']);
  await execGit('git', ['clone', '-q', repo, clone]);
  return { repo, clone };
}

/** Polls `probe` until it returns a value (generous deadline for a busy machine). */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(250);
  }
}
