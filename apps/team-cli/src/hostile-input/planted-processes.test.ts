import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { updateRunState } from '@teamkit/team-core/state';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Bystander,
  startBystander,
  startTime,
  stopAllBystanders,
} from '../test-support/bystanders.js';
import { memberPid } from '../test-support/member-environment.js';
import { createHostileWorld, HAS_PROC, type HostileWorld } from './test-support/hostile-run.js';

// Issue 19 item 1: `team run stop` signals only processes verified as the run's. Each row
// plants a record that names a process Teamkit must not signal, and checks that a live
// bystander (a process leading its own group, with a child) survives a real stop.
if (!HAS_PROC) console.warn('skipping planted-process tests: this system has no /proc');

const HOUR = 3_600_000;
const initStart = () => {
  const stat = readFileSync('/proc/1/stat', 'utf8');
  const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
  return btime * 1000 + Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) * 10;
};

interface PlantRow {
  name: string;
  /** What is planted: a member's recorded session, or the supervisor's record. */
  target: 'member' | 'supervisor';
  record: (bystander: Bystander) => { pid: number | string; startedAt: number };
  reason: RegExp;
}

const rows: PlantRow[] = [
  {
    name: 'a reused pid: a live bystander recorded with another start time',
    target: 'member',
    record: (b) => ({ pid: b.pid, startedAt: b.startedAt - HOUR }),
    reason: /now belongs to another process/,
  },
  {
    name: 'a foreign process group: a bystander group leader with its true start time',
    target: 'member',
    record: (b) => ({ pid: b.pid, startedAt: b.startedAt }),
    reason: /not started by Teamkit/,
  },
  {
    name: 'pid 1 with init’s true start time',
    target: 'member',
    record: () => ({ pid: 1, startedAt: initStart() }),
    reason: /pid 1 names no single process/,
  },
  {
    name: 'pid 0',
    target: 'member',
    record: () => ({ pid: 0, startedAt: Date.now() }),
    reason: /names no process this host started/,
  },
  {
    name: 'pid -1',
    target: 'member',
    record: () => ({ pid: '-1', startedAt: Date.now() }),
    reason: /names no process this host started/,
  },
  {
    name: 'a reused pid: a live bystander recorded with another start time',
    target: 'supervisor',
    record: (b) => ({ pid: b.pid, startedAt: b.startedAt - HOUR }),
    reason: /now belongs to another process/,
  },
  {
    name: 'a foreign process group: a bystander group leader with its true start time',
    target: 'supervisor',
    record: (b) => ({ pid: b.pid, startedAt: b.startedAt }),
    reason: /not started by Teamkit/,
  },
  {
    name: 'pid 1 with init’s true start time',
    target: 'supervisor',
    record: () => ({ pid: 1, startedAt: initStart() }),
    reason: /pid 1 names no single process/,
  },
  {
    name: 'pid 0',
    target: 'supervisor',
    record: () => ({ pid: 0, startedAt: Date.now() }),
    reason: /pid 0 names no single process/,
  },
  {
    name: 'pid -1',
    target: 'supervisor',
    record: () => ({ pid: -1, startedAt: Date.now() }),
    reason: /pid -1 names no single process/,
  },
];

let world: HostileWorld;
const leftovers: { pid: number; startedAt: number }[] = [];

beforeAll(async () => {
  if (HAS_PROC) world = await createHostileWorld();
});
afterEach(() => {
  stopAllBystanders();
  // The member processes whose records were replaced: stopped only if still the same process.
  for (const { pid, startedAt } of leftovers.splice(0)) {
    try {
      if (startTime(pid) === startedAt) process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
});
afterAll(async () => {
  await world?.cleanup();
}, 120_000);

describe.skipIf(!HAS_PROC)('team run stop signals only processes verified as the run’s', () => {
  for (const row of rows) {
    it(`leaves a bystander alive: ${row.target} record of ${row.name}`, async () => {
      const runId = await world.startRun('sleep 600');
      const bystander = await startBystander();
      const planted = row.record(bystander);
      if (row.target === 'member') {
        const real = memberPid(world.home, runId, 'w1');
        leftovers.push({ pid: real, startedAt: startTime(real) });
        await updateRunState(
          world.home,
          runId,
          (draft) => {
            const w1 = draft.members.find((member) => member.name === 'w1');
            if (w1 !== undefined) w1.sessionId = `proc-${planted.pid}-${planted.startedAt}`;
            return draft;
          },
          { store: createFileStore({ root: world.home }) },
        );
      } else {
        await writeFile(
          path.join(world.home, 'runtime', runId, 'supervisor.json'),
          JSON.stringify({ version: 1, ...planted }),
        );
      }

      const stopped = await world.team(['run', 'stop', runId, '--force', '--json']);
      expect(bystander.alive(), 'the bystander and its group survive').toBe(true);
      expect(stopped.code, stopped.stdout + stopped.stderr).toBe(0);
      const result = stopped.json() as unknown as {
        report: { status: string; stopped: string[] };
        supervisor: { outcome: string; reason?: string };
        notSignalled: { member: string; reason: string }[];
      };
      expect(result.report.status).toBe('deleted');
      if (row.target === 'member') {
        expect(result.report.stopped).not.toContain('w1');
        expect(result.notSignalled).toEqual([
          expect.objectContaining({ member: 'w1', reason: expect.stringMatching(row.reason) }),
        ]);
      } else {
        expect(result.supervisor).toMatchObject({
          outcome: 'refused',
          reason: expect.stringMatching(row.reason),
        });
      }
    }, 60_000);
  }
});
