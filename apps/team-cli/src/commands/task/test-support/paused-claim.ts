import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { createTaskList, issueMemberCredential, openRun } from '@teamkit/team-core';
import { TeamSpecSchema } from '@teamkit/team-core/schema';
import { createRunState, transitionMember, transitionRun } from '@teamkit/team-core/state';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, createTempHome, spawn } from '../../../test-support/run-cli.js';

// Defect 9 of the consolidation: a claimer frozen (SIGSTOP) between reading a task and
// writing its claim, past the stale period of any lock, must not overwrite the claim of
// the member that won meanwhile. The test-only variable TEAMKIT_TEST_STOP_AT makes the
// CLI stop itself exactly there (see stopHereForTest in team-core).

const STALE_PERIOD_MS = 10_000;
const MEMBERS = ['lead', 'first', 'second'];

/**
 * Registers the paused-claimer test with `trials` tasks, each claimed by a frozen claimer
 * and then by another member. `pnpm test` runs a short count, `pnpm test:slow` the full one.
 */
export function describePausedClaim(trials: number): void {
  let home: string;
  let cleanup: () => Promise<void>;
  let runId: string;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    ({ home, cleanup } = await createTempHome());
    const spec = TeamSpecSchema.parse({
      id: 'paused-claim',
      name: 'paused claim',
      lead: 'lead',
      members: MEMBERS.map((name) => ({
        name,
        role: name === 'lead' ? 'lead' : 'worker',
        prompt: name,
      })),
    });
    const state = await createRunState(
      home,
      {
        spec,
        teamSource: { scope: 'inline' },
        hostId: 'test',
      },
      { store: createFileStore({ root: home }) },
    );
    runId = state.runId;
    await transitionRun(home, runId, 'active', { store: createFileStore({ root: home }) });
    for (const member of MEMBERS) {
      await transitionMember(home, runId, member, 'running', {
        store: createFileStore({ root: home }),
      });
      tokens.set(
        member,
        await issueMemberCredential(home, runId, member, {
          store: createFileStore({ root: home }),
        }),
      );
    }
  }, 60_000);

  afterAll(async () => {
    await cleanup();
  });

  interface Claim {
    pid: number;
    done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  }

  function claim(member: string, taskId: string, env: Record<string, string> = {}): Claim {
    const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete base.TMUX;
    const child = spawn(process.execPath, [CLI_BIN, 'task', 'claim', taskId, '--json'], {
      env: {
        ...base,
        TEAMKIT_HOME: home,
        TEAMKIT_RUN: runId,
        TEAMKIT_MEMBER: member,
        TEAMKIT_TOKEN: tokens.get(member) as string,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
    return { pid: child.pid as number, done };
  }

  /** The process's state letter from /proc (T: stopped), or undefined once it is gone. */
  function processState(pid: number): string | undefined {
    try {
      return /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
    } catch {
      return undefined;
    }
  }

  async function until(condition: () => boolean, what: string, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await delay(25);
    }
  }

  describe('a claimer paused inside its critical section', () => {
    it(`never lands its late write (${trials} trials)`, async () => {
      const tasks = createTaskList({ store: createFileStore({ root: home }), home, runId });
      const ids: string[] = [];
      for (let i = 0; i < trials; i += 1) {
        ids.push((await tasks.createTask('lead', { subject: `trial ${i + 1}` })).id);
      }
      // Every first claimer reads its task, then stops itself before its compare-and-set.
      const paused = ids.map((id) => claim('first', id, { TEAMKIT_TEST_STOP_AT: 'task-commit' }));
      try {
        for (const [index, first] of paused.entries()) {
          await until(
            () => {
              const state = processState(first.pid);
              return state === 'T' || state === 'Z' || state === undefined;
            },
            `claimer ${index + 1} to stop or end`,
          );
          expect(processState(first.pid), `claimer ${index + 1} stopped itself`).toBe('T');
        }
        // Past the stale period of any lock the frozen claimers could hold.
        await delay(STALE_PERIOD_MS + 1_000);
        // Another member claims each task meanwhile and is told ok.
        for (const id of ids) {
          const won = await claim('second', id).done;
          expect(won.code, won.stderr + won.stdout).toBe(0);
          expect(JSON.parse(won.stdout)).toMatchObject({ ok: true, task: { id, owner: 'second' } });
        }
      } finally {
        for (const first of paused) process.kill(first.pid, 'SIGCONT');
      }
      for (const [index, first] of paused.entries()) {
        const late = await first.done;
        expect(late.code, `claimer ${index + 1}: ${late.stderr}${late.stdout}`).not.toBe(0);
        expect(JSON.parse(late.stdout)).toMatchObject({
          ok: false,
          error: { code: 'ALREADY_CLAIMED' },
        });
      }
      const { tasks: stored } = await tasks.listTasks();
      for (const id of ids) {
        expect(stored.find((task) => task.id === id)).toMatchObject({
          status: 'claimed',
          owner: 'second',
        });
      }
      const { events } = await openRun({
        store: createFileStore({ root: home }),
        home,
        runId,
      }).events.read();
      const claims = events.filter((event) => event.type === 'task.claimed');
      expect(claims.map((event) => [event.ids?.[0], event.data?.owner]).sort()).toEqual(
        ids.map((id) => [id, 'second']).sort(),
      );
    }, 240_000);
  });
}
