import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type NatsServerProcess, startNatsServer } from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempHome, runCli } from '../../test-support/run-cli.js';
import { createRepoWithClone, natsServerMissing } from '../../test-support/shared-store.js';
import { writeTestTeam } from '../../test-support/test-team.js';

// The scripted teamkit-agent reaches its run through the home folder only: a run kept in
// NATS refuses it before anything is written, rather than starting members that stop.
const missing = natsServerMissing();

let server: NatsServerProcess;
let folder: string;
let cleanup: () => Promise<void>;
let homeA: string;
let homeB: string;
const sleepers: number[] = [];

const team = (home: string, args: string[]) =>
  runCli([...args, '--home', home, '--json'], { TEAMKIT_STORE: server.url }, { timeoutMs: 60_000 });

async function runsIn(home: string): Promise<string[]> {
  const listed = await team(home, ['run', 'list']);
  expect(listed.code, listed.stdout + listed.stderr).toBe(0);
  return (listed.json().runs as { runId: string }[]).map((run) => run.runId);
}

function expectRefused(result: Awaited<ReturnType<typeof team>>, members: string): void {
  expect(result.code, result.stdout + result.stderr).not.toBe(0);
  const error = result.json().error as { code: string; message: string };
  expect(error.code).toBe('INVALID_INPUT');
  expect(error.message).toContain(`${members} would run as teamkit-agent`);
  expect(error.message).toContain('agent CLI preset');
}

describe.skipIf(missing !== undefined)('teamkit-agent in a run kept in NATS', () => {
  beforeAll(async () => {
    server = await startNatsServer();
    ({ home: folder, cleanup } = await createTempHome());
    homeA = path.join(folder, 'machine-a');
    homeB = path.join(folder, 'machine-b');
    await mkdir(homeA);
    await mkdir(homeB);
    await writeTestTeam(homeA, { id: 'pair', lead: 'lead', members: ['lead', 'w1'] });
  }, 60_000);

  afterAll(async () => {
    for (const pid of sleepers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await server?.close();
    await cleanup?.();
  }, 60_000);

  it('refuses team run start --agent teamkit-agent and writes nothing', async () => {
    const started = await team(homeA, ['run', 'start', 'pair', '--agent', 'teamkit-agent']);
    expectRefused(started, 'lead, w1');
    expect(await runsIn(homeA)).toEqual([]);
    expect(existsSync(path.join(homeA, 'runtime'))).toBe(false);
  });

  it('refuses an --agent-cmd led by teamkit-agent', async () => {
    const started = await team(homeA, [
      'run',
      'start',
      'pair',
      '--agent-cmd',
      'teamkit-agent --member {member}',
    ]);
    expectRefused(started, 'lead, w1');
    expect(await runsIn(homeA)).toEqual([]);
  });

  it('refuses a team whose members name teamkit-agent as their own agent', async () => {
    const file = path.join(homeA, 'teams', 'pair', 'team.yaml');
    const original = await readFile(file, 'utf8');
    try {
      await writeFile(
        file,
        original
          .replace('prompt: You are w1.', 'prompt: You are w1.\n    agent: teamkit-agent')
          .replace('prompt: You are lead.', 'prompt: You are lead.\n    agent: teamkit-agent'),
      );
      const started = await team(homeA, ['run', 'start', 'pair']);
      expectRefused(started, 'lead, w1');
      expect(await runsIn(homeA)).toEqual([]);
    } finally {
      await writeFile(file, original);
    }
  });

  it('refuses team run join --agent teamkit-agent before placing the member', async () => {
    const { repo, clone } = await createRepoWithClone(folder);
    const started = await team(homeA, [
      'run',
      'start',
      'pair',
      '--repo',
      repo,
      '--agent-cmd',
      'sleep 600',
      '--elsewhere',
      'w1',
    ]);
    expect(started.code, started.stdout + started.stderr).toBe(0);
    const runId = started.json().runId as string;
    try {
      const shown = await team(homeA, ['run', 'status', runId]);
      for (const member of (shown.json().status as { members: { sessionId?: string }[] }).members)
        sleepers.push(Number(/^proc-(\d+)-/.exec(member.sessionId ?? '')?.[1]));
      const joined = await team(homeB, [
        'run',
        'join',
        runId,
        'w1',
        '--repo',
        clone,
        '--agent',
        'teamkit-agent',
      ]);
      expectRefused(joined, 'w1');
      const after = await team(homeB, ['run', 'status', runId]);
      const w1 = (
        after.json().status as { members: { name: string; status: string; machine?: string }[] }
      ).members.find((member) => member.name === 'w1');
      expect(w1).toMatchObject({ status: 'pending' });
      expect(w1?.machine).toBeUndefined();
      expect(existsSync(path.join(homeB, 'worktrees'))).toBe(false);
    } finally {
      await team(homeA, ['run', 'stop', runId, '--force']);
    }
  }, 180_000);
});
