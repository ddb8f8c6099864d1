import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sourceNodeArgs } from '@teamkit/repo-testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RuntimeStateSchema } from '../schema/runtime-state.js';
import { createFileStore } from '../storage/index.js';
import { runPaths } from '../storage/teamkit-home.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { startMember } from './run-bounds.js';
import {
  createRunState,
  readRunState,
  transitionMember,
  transitionRun,
} from './run-state-store.js';
import { makeSpec } from './test-support/temp-home.js';

const worker = fileURLToPath(new URL('./__fixtures__/transition-worker.mjs', import.meta.url));

function runUntilStep(
  home: string,
  runId: string,
  step: number,
): Promise<{ child: ChildProcess; seen: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...sourceNodeArgs(), worker, home, runId], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let buffered = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout?.on('data', (chunk) => {
      buffered += chunk;
      const steps = buffered.trim().split('\n').map(Number);
      const seen = steps[steps.length - 1] ?? 0;
      if (seen >= step) resolve({ child, seen });
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`worker exited (${code}): ${stderr}`));
    });
  });
}

describe('SIGKILL during a transition', () => {
  let home: string;
  let cleanup: () => Promise<void>;
  const children: ChildProcess[] = [];
  beforeEach(async () => {
    ({ dir: home, cleanup } = await makeTempFolder('teamkit-state-'));
  });
  afterEach(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await cleanup();
  });

  it('leaves a readable, legal state that the next writer can change', async () => {
    const created = await createRunState(
      home,
      {
        spec: makeSpec(['writer']),
        teamSource: { scope: 'inline' },
        hostId: 'test',
      },
      { store: createFileStore({ root: home }) },
    );
    const runId = created.runId;
    await transitionRun(home, runId, 'active', { store: createFileStore({ root: home }) });
    await startMember(
      home,
      runId,
      'writer',
      { sessionId: 's-writer' },
      { store: createFileStore({ root: home }) },
    );
    let completed = 0;
    for (const killAfter of [3, 17, 40]) {
      const { child, seen } = await runUntilStep(home, runId, killAfter);
      children.push(child);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      completed += seen;

      const text = await readFile(runPaths(home, runId).state, 'utf8');
      const state = RuntimeStateSchema.parse(JSON.parse(text));
      expect(['running', 'idle']).toContain(state.members[1]?.status);
      // Each step counts a turn after its transition; the kill may land after the
      // report of a step, or inside the next step's transition or count.
      expect(state.counters.turns).toBeGreaterThanOrEqual(completed);
      expect(state.counters.turns).toBeLessThanOrEqual(completed + 2);
      completed = state.counters.turns;
      const next = state.members[1]?.status === 'running' ? 'idle' : 'running';
      const after = await transitionMember(home, runId, 'writer', next, {
        store: createFileStore({ root: home }),
        lock: { staleMs: 2_000, timeoutMs: 30_000 },
      });
      expect(after.members[1]?.status).toBe(next);
      expect(
        (await readRunState(home, runId, { store: createFileStore({ root: home }) })).members[1]
          ?.status,
      ).toBe(next);
    }
    const leftovers = (await readdir(runPaths(home, runId).root)).filter(
      (name) =>
        name.startsWith('state.json') && name !== 'state.json' && name !== 'state.json.lock',
    );
    for (const name of leftovers) expect(name).toMatch(/^state\.json\.[0-9a-f]+$/);
  });
});
