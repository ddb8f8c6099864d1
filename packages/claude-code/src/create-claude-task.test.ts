import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isTeamkitError } from '@teamkit/team-core';
import { describe, expect, it } from 'vitest';
import { createClaudeTeamSource } from './create-claude-team-source.js';
import { createClaudeTeamWriter } from './create-claude-team-writer.js';
import {
  fakeProbe,
  plantedTask,
  plantTasks,
  plantTeam,
  useConfigDir,
} from './test-support/plant-team.js';

let configDir = '';
useConfigDir((folder) => {
  configDir = folder;
});

const TEAM = 'session-7a052ba9';
const LEAD = 4242;
const options = () => ({ configDir, probe: fakeProbe({ [LEAD]: '104284' }) });
const taskFolder = () => path.join(configDir, 'tasks', TEAM);

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('creating a task in a Claude Code team', () => {
  it('writes the full task Claude Code validates, with the next id after every file and the high-water mark', async () => {
    await plantTeam(configDir, TEAM, { teammates: ['worker'] });
    await plantTasks(configDir, TEAM, {
      '2': plantedTask('2'),
      '7': plantedTask('7', { status: 'completed' }),
    });
    await writeFile(path.join(taskFolder(), '.highwatermark'), '9');

    const result = await createClaudeTeamWriter(options()).createTask({
      team: TEAM,
      subject: 'Write the README',
      description: 'Explain the project',
      activeForm: 'Writing the README',
      metadata: { source: 'teamkit' },
    });

    expect(result.id).toBe('10');
    const text = await readFile(path.join(taskFolder(), '10.json'), 'utf8');
    expect(text).toBe(
      JSON.stringify(
        {
          id: '10',
          subject: 'Write the README',
          description: 'Explain the project',
          activeForm: 'Writing the README',
          status: 'pending',
          blocks: [],
          blockedBy: [],
          metadata: { source: 'teamkit' },
        },
        null,
        2,
      ),
    );
    // The team's own view shows it like any task Claude Code made.
    const view = await createClaudeTeamSource(options()).readTeam(TEAM);
    expect(view.tasks.map((task) => task.id)).toEqual(['2', '7', '10']);
    expect(view.problems).toEqual([]);
    // The lock folder is gone and no temp file is left; the anchor `.lock` stays, as Claude Code leaves it.
    expect((await readdir(taskFolder())).sort()).toEqual([
      '.highwatermark',
      '.lock',
      '10.json',
      '2.json',
      '7.json',
    ]);
  });

  it('gives out consecutive ids, with an empty description when none is given', async () => {
    await plantTeam(configDir, TEAM, { teammates: ['worker'] });
    const writer = createClaudeTeamWriter(options());

    const first = await writer.createTask({ team: TEAM, subject: 'one' });
    const second = await writer.createTask({ team: TEAM, subject: 'two' });

    expect([first.id, second.id]).toEqual(['1', '2']);
    expect(first.task).toMatchObject({
      description: '',
      blocks: [],
      blockedBy: [],
      status: 'pending',
    });
  });

  it('goes on after the highest file id when .highwatermark is unreadable, with a warning', async () => {
    await plantTeam(configDir, TEAM, { teammates: ['worker'] });
    await plantTasks(configDir, TEAM, { '3': plantedTask('3') });
    await writeFile(path.join(taskFolder(), '.highwatermark'), 'garbage');

    const result = await createClaudeTeamWriter({
      ...options(),
      retry: { attempts: 2, delayMs: 1 },
    }).createTask({
      team: TEAM,
      subject: 'next',
    });

    expect(result.id).toBe('4');
    expect(result.warnings.map((warning) => warning.code)).toEqual(['HIGH_WATERMARK_UNREADABLE']);
  });

  it('refuses bad input and ended teams, and writes nothing', async () => {
    await plantTeam(configDir, TEAM, { teammates: ['worker'] });
    await plantTeam(configDir, 'session-0000dead', { leadPid: 9999 });
    const writer = createClaudeTeamWriter(options());

    const cases: [() => Promise<unknown>, string][] = [
      [() => writer.createTask({ team: TEAM, subject: '  ' }), 'INVALID_INPUT'],
      [() => writer.createTask({ team: TEAM, subject: 'x'.repeat(501) }), 'INVALID_INPUT'],
      [
        () => writer.createTask({ team: TEAM, subject: 'ok', metadata: [] as never }),
        'INVALID_INPUT',
      ],
      [
        () => writer.createTask({ team: 'session-0000dead', subject: 'ok' }),
        'CLAUDE_TEAM_NOT_LIVE',
      ],
      [() => writer.createTask({ team: 'no/such', subject: 'ok' }), 'INVALID_INPUT'],
    ];
    for (const [attempt, code] of cases) {
      const error = await errorOf(attempt());
      expect(isTeamkitError(error, code as never), `${code}: ${String(error)}`).toBe(true);
    }
    expect(await readdir(taskFolder())).toEqual([]);
    expect(await readdir(path.join(configDir, 'tasks', 'session-0000dead'))).toEqual([]);
  });

  it('waits for the task list lock Claude Code holds (.lock.lock), and takes over a stale one', async () => {
    await plantTeam(configDir, TEAM, { teammates: ['worker'] });
    await writeFile(path.join(taskFolder(), '.lock'), '');
    await mkdir(path.join(taskFolder(), '.lock.lock'));

    const timedOut = await errorOf(
      createClaudeTeamWriter({ ...options(), lockTimeoutMs: 300 }).createTask({
        team: TEAM,
        subject: 'x',
      }),
    );
    expect(isTeamkitError(timedOut, 'LOCK_TIMEOUT')).toBe(true);
    expect((await readdir(taskFolder())).sort()).toEqual(['.lock', '.lock.lock']);

    const old = new Date(Date.now() - 30_000);
    await utimes(path.join(taskFolder(), '.lock.lock'), old, old);
    const created = await createClaudeTeamWriter(options()).createTask({
      team: TEAM,
      subject: 'x',
    });
    expect(created.id).toBe('1');
  });
});
