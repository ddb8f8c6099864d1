import { spawn } from 'node:child_process';
import { mkdir, rename, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isTeamkitError } from '@teamkit/team-core';
import { describe, expect, it } from 'vitest';
import { createClaudeTeamSource } from './create-claude-team-source.js';
import { createProcessProbe } from './process-probe.js';
import {
  fakeProbe,
  plantedEntry,
  plantedTask,
  plantInbox,
  plantTasks,
  plantTeam,
  useConfigDir,
} from './test-support/plant-team.js';

let configDir = '';
useConfigDir((folder) => {
  configDir = folder;
});

const LEAD = 4242;
const source = (running: Record<number, string | undefined> = { [LEAD]: '104284' }) =>
  createClaudeTeamSource({ configDir, probe: fakeProbe(running) });

describe('reading a live Claude Code team', () => {
  it('maps members, tasks with their dependencies and owners, and pending inbox entries', async () => {
    await plantTeam(configDir, 'session-7a052ba9', { teammates: ['worker'], version: '2.1.328' });
    await plantTasks(configDir, 'session-7a052ba9', {
      '10': plantedTask('10', { status: 'completed', owner: 'worker' }),
      '2': plantedTask('2', { status: 'in_progress', owner: 'worker', blocks: ['3'] }),
      '3': plantedTask('3', { blockedBy: ['2'], activeForm: 'Writing docs' }),
    });
    await plantInbox(configDir, 'session-7a052ba9', 'team-lead', [
      plantedEntry(
        'worker',
        JSON.stringify({ type: 'idle_notification', from: 'worker', idleReason: 'available' }),
      ),
      plantedEntry('worker', 'already seen', { read: true }),
      { from: 'worker' },
    ]);
    await plantInbox(configDir, 'session-7a052ba9', 'worker', []);

    const view = await source().readTeam('session-7a052ba9');

    expect(view.liveness).toEqual({
      status: 'live',
      reason: 'lead process 4242 is running',
      leadPid: LEAD,
    });
    expect(view.version).toBe('2.1.328');
    expect(view.warnings).toEqual([]);
    expect(view.problems).toEqual([]);
    expect(view.members.map((member) => [member.name, member.isLead, member.backendType])).toEqual([
      ['team-lead', true, 'in-process'],
      ['worker', false, 'in-process'],
    ]);
    expect(view.tasks.map((task) => [task.id, task.status, task.owner ?? null])).toEqual([
      ['2', 'in_progress', 'worker'],
      ['3', 'pending', null],
      ['10', 'completed', 'worker'],
    ]);
    expect(view.tasks[1]).toMatchObject({
      blockedBy: ['2'],
      blocks: [],
      activeForm: 'Writing docs',
    });
    expect(view.taskCounts).toEqual({ pending: 1, in_progress: 1, completed: 1 });
    expect(view.highestTaskId).toBe(10);
    const lead = view.inboxes.find((inbox) => inbox.recipient === 'team-lead');
    expect(lead?.orphan).toBe(false);
    expect(lead?.malformed).toBe(1);
    expect(lead?.pending).toHaveLength(1);
    expect(lead?.pending[0]?.control).toMatchObject({
      type: 'idle_notification',
      idleReason: 'available',
    });
    expect(view.pendingMessages).toBe(1);
  });

  it('keeps fields it does not know, and flags an inbox no member reads', async () => {
    await plantTeam(configDir, 'session-aaaa0001', {
      extra: { futureSetting: { on: true } },
    });
    await plantTasks(configDir, 'session-aaaa0001', {
      '1': plantedTask('1', { priority: 'high' }),
    });
    await plantInbox(configDir, 'session-aaaa0001', 'misspeled', [
      plantedEntry('team-lead', 'hello?'),
    ]);

    const view = await source().readTeam('session-aaaa0001');

    expect(view.extra).toEqual({ futureSetting: { on: true } });
    expect(view.tasks[0]?.extra).toEqual({ priority: 'high' });
    expect(view.inboxes).toEqual([
      expect.objectContaining({ recipient: 'misspeled', orphan: true }),
    ]);
  });

  it('reports a task Claude Code would drop, with the reason, instead of showing it', async () => {
    await plantTeam(configDir, 'session-aaaa0002');
    const { description: _, ...noDescription } = plantedTask('1');
    await plantTasks(configDir, 'session-aaaa0002', { '1': noDescription, '2': plantedTask('2') });

    const view = await source().readTeam('session-aaaa0002');

    expect(view.tasks.map((task) => task.id)).toEqual(['2']);
    expect(view.problems).toEqual([
      {
        file: path.join(configDir, 'tasks', 'session-aaaa0002', '1.json'),
        reason: 'Claude Code ignores this task: description is not a string',
      },
    ]);
  });

  it('warns, and still reads, when the lead runs a Claude Code version it was not checked against', async () => {
    await plantTeam(configDir, 'session-aaaa0003', { version: '9.0.0' });

    const view = await source().readTeam('session-aaaa0003');

    expect(view.liveness.status).toBe('live');
    expect(view.warnings).toEqual([expect.objectContaining({ code: 'UNCHECKED_VERSION' })]);
    expect(view.warnings[0]?.message).toContain('9.0.0');
  });

  it('reads a config written by an older Claude Code (no lead process, teamName) as unknown liveness', async () => {
    await mkdir(path.join(configDir, 'teams', 'proxy-analysis'), { recursive: true });
    await writeFile(
      path.join(configDir, 'teams', 'proxy-analysis', 'config.json'),
      JSON.stringify({
        teamName: 'proxy-analysis',
        members: [
          { agentId: 'team-lead@proxy-analysis', name: 'team-lead', agentType: 'team-lead' },
          'junk',
        ],
        leadProcess: { pid: 'not a number' },
      }),
    );

    const view = await source().readTeam('proxy-analysis');

    expect(view.liveness.status).toBe('unknown');
    expect(view.members.map((member) => member.name)).toEqual(['team-lead']);
    expect(view.members[0]?.isLead).toBe(true);
  });
});

describe('telling a live team from a finished one', () => {
  it('is finished when the lead process is gone, or its pid now belongs to another process', async () => {
    await plantTeam(configDir, 'session-bbbb0001', { leadPid: 5001, procStart: '100' });
    await plantTeam(configDir, 'session-bbbb0002', { leadPid: 5002, procStart: '100' });

    const probe = { 5002: '999' };
    const first = await source(probe).readTeam('session-bbbb0001');
    const second = await source(probe).readTeam('session-bbbb0002');

    expect(first.liveness).toMatchObject({
      status: 'finished',
      reason: 'lead process 5001 is not running',
    });
    expect(second.liveness.status).toBe('finished');
    expect(second.liveness.reason).toContain('another process');
  });

  it('is unknown when the lead runs in another pid space', async () => {
    await plantTeam(configDir, 'session-bbbb0003', { pidSpace: 'other-host#pid:[7]' });
    const view = await source().readTeam('session-bbbb0003');
    expect(view.liveness.status).toBe('unknown');
  });

  it('checks a real process: this one is live, an exited one is finished', async () => {
    const probe = createProcessProbe();
    const child = spawn(process.execPath, ['-e', '']);
    const childPid = child.pid as number;
    await new Promise((resolve) => child.on('close', resolve));
    const ownStart = probe.startTimeOf(process.pid);
    await plantTeam(configDir, 'session-cccc0001', {
      leadPid: process.pid,
      pidSpace: probe.pidSpace(),
      ...(ownStart === undefined ? {} : { procStart: ownStart }),
    });
    await plantTeam(configDir, 'session-cccc0002', {
      leadPid: childPid,
      pidSpace: probe.pidSpace(),
    });
    const real = createClaudeTeamSource({ configDir });

    expect((await real.readTeam('session-cccc0001')).liveness.status).toBe('live');
    expect((await real.readTeam('session-cccc0002')).liveness.status).toBe('finished');
  });

  it('is finished once Claude Code removed the team folder, with the tasks that remain', async () => {
    await plantTasks(configDir, 'session-dddd0001', {
      '1': plantedTask('1', { status: 'completed' }),
    });

    const view = await source().readTeam('session-dddd0001');

    expect(view.hasConfig).toBe(false);
    expect(view.liveness.status).toBe('finished');
    expect(view.members).toEqual([]);
    expect(view.tasks).toHaveLength(1);
  });
});

describe('listing teams', () => {
  it('lists live teams first, skips deleted folders, session-only task lists and empty ended lists', async () => {
    await plantTeam(configDir, 'session-eeee0001', { leadPid: 6001 });
    await plantTeam(configDir, 'session-eeee0002', { leadPid: LEAD });
    await plantTasks(configDir, 'session-eeee0003', { '1': plantedTask('1') });
    const earlier = new Date(Date.now() - 60_000);
    await utimes(
      path.join(configDir, 'teams', 'session-eeee0001', 'config.json'),
      earlier,
      earlier,
    );
    await mkdir(path.join(configDir, 'tasks', 'session-eeee0004'), { recursive: true });
    await mkdir(path.join(configDir, 'tasks', '7a052ba9-39bd-4f9d-b8b5-0d256b7f354d'), {
      recursive: true,
    });
    await plantTasks(configDir, '7a052ba9-39bd-4f9d-b8b5-0d256b7f354e', { '1': plantedTask('1') });
    await plantTeam(configDir, 'session-eeee0005');
    await rename(
      path.join(configDir, 'teams', 'session-eeee0005'),
      path.join(
        configDir,
        'teams',
        'session-eeee0005.deleted-0b5e4f5c-1b3a-4c1e-9a53-0e6c1d1b2a3f',
      ),
    );
    await rm(path.join(configDir, 'tasks', 'session-eeee0005'), { recursive: true });

    const listing = await source().listTeams();

    // Within a status, the team whose files changed last comes first.
    expect(listing.teams.map((team) => [team.name, team.liveness.status])).toEqual([
      ['session-eeee0002', 'live'],
      ['session-eeee0003', 'finished'],
      ['session-eeee0001', 'finished'],
    ]);
    expect(listing.problems).toEqual([]);
  });

  it('gives an empty listing for a config folder Claude Code never wrote', async () => {
    const listing = await createClaudeTeamSource({
      configDir: path.join(configDir, 'missing'),
    }).listTeams();
    expect(listing.teams).toEqual([]);
  });

  it('refuses a name that is not a Claude Code team name, and reports a missing team', async () => {
    const errors = await Promise.all(
      ['../etc', 'session-ffff0001'].map((name) =>
        source()
          .readTeam(name)
          .catch((error: unknown) => error),
      ),
    );
    expect(isTeamkitError(errors[0], 'INVALID_INPUT')).toBe(true);
    expect(isTeamkitError(errors[1], 'CLAUDE_TEAM_NOT_FOUND')).toBe(true);
  });
});

describe('torn files', () => {
  it('reads a config again while Claude Code is still rewriting it in place', async () => {
    const config = await plantTeam(configDir, 'session-abab0001');
    const file = path.join(configDir, 'teams', 'session-abab0001', 'config.json');
    const whole = JSON.stringify(config, null, 2);
    await truncate(file, 0);
    await writeFile(file, whole.slice(0, 40));
    const finishing = new Promise<void>((resolve) =>
      setTimeout(() => void writeFile(file, whole).then(resolve), 25),
    );

    const view = await createClaudeTeamSource({
      configDir,
      probe: fakeProbe({ [LEAD]: '104284' }),
      retry: { attempts: 8, delayMs: 10 },
    }).readTeam('session-abab0001');
    await finishing;

    expect(view.problems).toEqual([]);
    expect(view.liveness.status).toBe('live');
  });

  it('reports a file that stays torn as a problem, never as a crash or an empty team', async () => {
    await plantTeam(configDir, 'session-abab0002', { teammates: ['worker'] });
    await plantTasks(configDir, 'session-abab0002', {
      '1': '{"id": "1", "subj',
      '2': plantedTask('2'),
    });
    await plantInbox(configDir, 'session-abab0002', 'worker', '[{"from": "team-lead"');

    const view = await createClaudeTeamSource({
      configDir,
      probe: fakeProbe({ [LEAD]: '104284' }),
      retry: { attempts: 3, delayMs: 1 },
    }).readTeam('session-abab0002');

    expect(view.tasks.map((task) => task.id)).toEqual(['2']);
    expect(view.problems.map((problem) => path.basename(problem.file))).toEqual([
      '1.json',
      'worker.json',
    ]);
    expect(view.problems[0]?.reason).toContain('3 reads in a row');
    expect(view.members).toHaveLength(2);
  });

  it('reports an unreadable config without hiding the tasks', async () => {
    await plantTeam(configDir, 'session-abab0003');
    await writeFile(path.join(configDir, 'teams', 'session-abab0003', 'config.json'), '{"name": ');
    await plantTasks(configDir, 'session-abab0003', { '1': plantedTask('1') });

    const view = await createClaudeTeamSource({
      configDir,
      probe: fakeProbe(),
      retry: { attempts: 2, delayMs: 1 },
    }).readTeam('session-abab0003');

    expect(view.liveness.status).toBe('unknown');
    expect(view.problems).toHaveLength(1);
    expect(view.tasks).toHaveLength(1);
  });
});
