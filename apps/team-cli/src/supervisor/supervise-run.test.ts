import { type ChildProcess, spawn } from 'node:child_process';
import { rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createTaskList, openRun } from '@teamkit/team-core';
import { processSessionId, readProcessFacts } from '@teamkit/team-core/processes';
import { TeamSpecSchema } from '@teamkit/team-core/schema';
import { createRunState, transitionMember, transitionRun } from '@teamkit/team-core/state';
import { createFileStore, runPaths } from '@teamkit/team-core/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempHome } from '../test-support/run-cli.js';
import { openProcessRuntime } from './open-runtime.js';
import { superviseOnce } from './supervise-run.js';

let home: string;
let cleanup: () => Promise<void>;
const children: ChildProcess[] = [];

/** A process standing for member `name`: started with the variables the process host sets. */
async function memberProcess(name: string): Promise<{ child: ChildProcess; sessionId: string }> {
  const child = spawn('sleep', ['600'], {
    env: { ...process.env, TEAMKIT_HOME: home, TEAMKIT_MEMBER: name },
    stdio: 'ignore',
  });
  children.push(child);
  const pid = child.pid as number;
  let facts = readProcessFacts(pid);
  for (let tries = 0; facts === undefined && tries < 100; tries += 1) {
    await delay(20);
    facts = readProcessFacts(pid);
  }
  return { child, sessionId: processSessionId(pid, (facts as { startedAt: number }).startedAt) };
}

beforeAll(async () => {
  ({ home, cleanup } = await createTempHome());
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await cleanup();
});

describe('the supervisor and a dead member’s tasks', () => {
  it('releases them on a later pass when the first release failed', async () => {
    const spec = TeamSpecSchema.parse({
      id: 'pair',
      name: 'Pair',
      lead: 'lead',
      members: ['lead', 'w1'].map((name) => ({ name, role: name, prompt: `You are ${name}.` })),
    });
    const { runId } = await createRunState(
      home,
      {
        spec,
        teamSource: { scope: 'inline' },
        hostId: 'process',
      },
      { store: createFileStore({ root: home }) },
    );
    await transitionRun(home, runId, 'active', { store: createFileStore({ root: home }) });
    const lead = await memberProcess('lead');
    const worker = await memberProcess('w1');
    await transitionMember(home, runId, 'lead', 'running', {
      store: createFileStore({ root: home }),
      sessionId: lead.sessionId,
    });
    await transitionMember(home, runId, 'w1', 'running', {
      store: createFileStore({ root: home }),
      sessionId: worker.sessionId,
    });
    const tasks = createTaskList({ store: createFileStore({ root: home }), home, runId });
    await tasks.createTask('lead', { subject: 'a' });
    await tasks.claimTask('w1', '1');

    // A link planted among the task files makes every full read of the list fail.
    const planted = path.join(runPaths(home, runId).tasks, '2.json');
    await symlink('/nonexistent-target', planted);
    worker.child.kill('SIGKILL');
    await new Promise((resolve) => worker.child.once('exit', resolve));

    const { runtime } = await openProcessRuntime({
      store: createFileStore({ root: home }),
      home,
      env: process.env,
      tmux: false,
    });
    const unreleased = new Set<string>();
    const lines: string[] = [];
    const pass = () =>
      superviseOnce(runtime, runId, { unreleased, log: (line) => lines.push(line) });

    expect(await pass()).toBeUndefined();
    const afterFirst = await openRun({
      home: home,
      runId: runId,
      store: createFileStore({ root: home }),
    }).state.read();
    expect(afterFirst.members.find((member) => member.name === 'w1')?.status).toBe('errored');
    expect((await tasks.getTask('1')).owner).toBe('w1');
    expect([...unreleased]).toEqual(['w1']);
    expect(lines.join('\n')).toMatch(/could not release the tasks of w1: .*trying again each pass/);

    // Still failing: nothing changes, and the failure is not logged again.
    expect(await pass()).toBeUndefined();
    expect((await tasks.getTask('1')).owner).toBe('w1');
    expect(lines.filter((line) => line.includes('could not release'))).toHaveLength(1);

    await rm(planted);
    expect(await pass()).toBeUndefined();
    const task = await tasks.getTask('1');
    expect([task.status, task.owner]).toEqual(['pending', undefined]);
    expect(unreleased.size).toBe(0);
    expect(lines.at(-1)).toContain('released the tasks of w1 on a later pass (1)');
  }, 60_000);
});
