import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostileWorld, type HostileWorld } from './test-support/hostile-run.js';
import { deeplyNested } from './test-support/planted-files.js';

// Issue 19 item 7: a project config nested 50,000 levels deep used to crash `team teams`
// and `team run start --project` with a stack overflow. It is skipped with a warning now.
let world: HostileWorld;
let project: string;

beforeAll(async () => {
  world = await createHostileWorld();
  project = path.join(world.root, 'deep-project');
  await mkdir(path.join(project, '.teamkit'), { recursive: true });
  await writeFile(path.join(project, '.teamkit', 'config.json'), deeplyNested(50_000));
});
afterAll(async () => {
  await world?.cleanup();
}, 120_000);

describe('a project config nested 50,000 levels deep', () => {
  it('is skipped by team teams and team doctor, which still list the global teams', async () => {
    const teams = await world.team(['teams', '--project', project, '--json']);
    expect(teams.code, teams.stdout).toBe(0);
    expect((teams.json().teams as { id: string }[]).map((team) => team.id)).toEqual(['crew']);
    expect(JSON.stringify(teams.json().warnings)).toMatch(/more than 64 levels deep/);
    const human = await world.team(['teams', '--project', project]);
    expect(human.stdout).toMatch(/warning .*was skipped: .*more than 64 levels deep/);
    const doctor = await world.team(['doctor', '--project', project, '--json']);
    expect(doctor.json()).toMatchObject({
      ok: true,
      report: { sources: [{ scope: 'project', status: 'invalid' }, { scope: 'global' }] },
    });
  });

  it('does not stop team run start --project from starting a global team', async () => {
    const started = await world.team([
      'run',
      'start',
      'crew',
      '--project',
      project,
      '--agent-cmd',
      'sleep 600',
      '--json',
    ]);
    expect(started.code, started.stdout + started.stderr).toBe(0);
    const stopped = await world.team(['run', 'stop', started.json().runId as string, '--json']);
    expect(stopped.json()).toMatchObject({ ok: true, report: { status: 'deleted' } });
  }, 60_000);
});
