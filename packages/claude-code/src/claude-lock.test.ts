import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isTeamkitError } from '@teamkit/team-core';
import { describe, expect, it } from 'vitest';
import { withClaudeLock } from './claude-lock.js';
import { useConfigDir } from './test-support/plant-team.js';

let folder = '';
useConfigDir((created) => {
  folder = created;
});

describe('Claude Code locks', () => {
  it('holds the proper-lockfile folder while the work runs and removes it after', async () => {
    const target = path.join(folder, 'worker.json');
    await writeFile(target, '[]');
    let during = false;
    await withClaudeLock(target, `${target}.lock`, async (lock) => {
      during = statSync(`${target}.lock`).isDirectory();
      lock.assertHeld();
    });
    expect(during).toBe(true);
    expect(() => statSync(`${target}.lock`)).toThrow(/ENOENT/);
  });

  it('refuses the write once another holder took the lock over, and leaves that holder its lock', async () => {
    const target = path.join(folder, 'worker.json');
    await writeFile(target, '[]');
    let refused: unknown;
    await withClaudeLock(target, `${target}.lock`, async (lock) => {
      // Somebody judged the lock stale, removed it and took it.
      rmdirSync(`${target}.lock`);
      mkdirSync(`${target}.lock`);
      try {
        lock.assertHeld();
      } catch (error) {
        refused = error;
      }
    });
    expect(isTeamkitError(refused, 'LOCK_COMPROMISED')).toBe(true);
    expect(statSync(`${target}.lock`).isDirectory()).toBe(true);
  });

  it('never creates the folder the lock lives in', async () => {
    const target = path.join(folder, 'gone', 'worker.json');
    await expect(
      withClaudeLock(target, `${target}.lock`, async () => 'done'),
    ).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(() => statSync(path.join(folder, 'gone'))).toThrow(/ENOENT/);
  });
});
