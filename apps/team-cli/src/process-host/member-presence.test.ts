import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { MemberPresenceSchema } from '@teamkit/team-core/schema';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { markWaiting, readWaitingMarker } from './member-presence.js';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function tempHome(): Promise<{ root: string; home: string; runId: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'teamkit-presence-'));
  folders.push(root);
  const home = path.join(root, 'home');
  await mkdir(home);
  return { root, home, runId: randomUUID() };
}

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  const pid = child.pid as number;
  await new Promise((resolve) => child.once('exit', resolve));
  return pid;
}

describe('member presence', () => {
  it('writes a private document of the core schema, read back while the writer lives', async () => {
    const { home, runId } = await tempHome();
    const clear = await markWaiting(runId, 'w1', {
      store: createFileStore({ root: home }),
      handoff: true,
    });
    const file = path.join(home, 'runtime', runId, 'presence', 'w1.json');
    const document = MemberPresenceSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    expect(document).toMatchObject({ version: 1, pid: process.pid, handoff: true });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readWaitingMarker(runId, 'w1', createFileStore({ root: home }))).toEqual(document);
    await clear();
    expect(await readWaitingMarker(runId, 'w1', createFileStore({ root: home }))).toBeUndefined();
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('ignores a marker whose process is gone', async () => {
    const { home, runId } = await tempHome();
    await markWaiting(runId, 'w1', {
      store: createFileStore({ root: home }),
      handoff: false,
      pid: await deadPid(),
    });
    expect(await readWaitingMarker(runId, 'w1', createFileStore({ root: home }))).toBeUndefined();
  });

  it("leaves a newer waiter's marker in place when an older one clears", async () => {
    const { home, runId } = await tempHome();
    const clearOld = await markWaiting(runId, 'w1', {
      store: createFileStore({ root: home }),
      handoff: false,
    });
    await delay(5);
    await markWaiting(runId, 'w1', { store: createFileStore({ root: home }), handoff: true });
    await clearOld();
    expect(await readWaitingMarker(runId, 'w1', createFileStore({ root: home }))).toMatchObject({
      handoff: true,
    });
  });

  it('never writes through a planted link and reads it as nobody waiting', async () => {
    const { root, home, runId } = await tempHome();
    const decoy = path.join(root, 'decoy.json');
    await writeFile(decoy, 'outside the home\n');
    const presence = path.join(home, 'runtime', runId, 'presence');
    await mkdir(presence, { recursive: true });
    await symlink(decoy, path.join(presence, 'w1.json'));
    await expect(
      markWaiting(runId, 'w1', { store: createFileStore({ root: home }), handoff: false }),
    ).rejects.toMatchObject({
      code: 'PATH_TRAVERSAL',
    });
    expect(await readWaitingMarker(runId, 'w1', createFileStore({ root: home }))).toBeUndefined();
    expect(await readFile(decoy, 'utf8')).toBe('outside the home\n');
  });
});
