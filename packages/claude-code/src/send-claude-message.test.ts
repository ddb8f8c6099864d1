import { mkdir, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isTeamkitError } from '@teamkit/team-core';
import { describe, expect, it } from 'vitest';
import { createClaudeTeamWriter } from './create-claude-team-writer.js';
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

const TEAM = 'session-7a052ba9';
const LEAD = 4242;
const writer = (lockTimeoutMs?: number) =>
  createClaudeTeamWriter({
    configDir,
    probe: fakeProbe({ [LEAD]: '104284' }),
    ...(lockTimeoutMs === undefined ? {} : { lockTimeoutMs }),
  });
const inboxOf = (name: string) => path.join(configDir, 'teams', TEAM, 'inboxes', `${name}.json`);
const readInbox = async (name: string) =>
  JSON.parse(await readFile(inboxOf(name), 'utf8')) as unknown[];

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('sending a message into a Claude Code team', () => {
  it('appends the entry Claude Code expects and keeps every other entry exactly as it was', async () => {
    await plantTeam(configDir, TEAM, { teammates: ['worker'] });
    const others = [
      plantedEntry('team-lead', 'first', { lead_sig: 'c2ln', futureField: [1, 2] }),
      { from: 'odd', note: 'malformed but kept' },
    ];
    await plantInbox(configDir, TEAM, 'worker', others);

    const result = await writer().sendMessage({
      team: TEAM,
      to: 'worker',
      text: 'Please review #2',
      summary: 'review',
    });

    const entries = await readInbox('worker');
    expect(entries.slice(0, 2)).toEqual(others);
    expect(entries[2]).toEqual({
      from: 'teamkit',
      text: 'Please review #2',
      summary: 'review',
      timestamp: result.timestamp,
      msgV: 1,
      msg_id: result.msgId,
      type: 'message',
      read: false,
    });
    expect(Object.keys(entries[2] as object)).toEqual([
      'from',
      'text',
      'summary',
      'timestamp',
      'msgV',
      'msg_id',
      'type',
      'read',
    ]);
    expect(result).toMatchObject({ to: 'worker', from: 'teamkit', state: 'pending', warnings: [] });
    // Nothing is left behind: no lock folder, no temp file.
    const names = await readdir(path.dirname(inboxOf('worker')));
    expect(names.sort()).toEqual(['worker.json']);
  });

  it('creates a missing inbox, and reaches the lead by its name or agent id', async () => {
    await plantTeam(configDir, TEAM, { teammates: ['worker'] });

    await writer().sendMessage({ team: TEAM, to: 'team-lead', text: 'one' });
    await writer().sendMessage({ team: TEAM, to: `team-lead@${TEAM}`, text: 'two' });

    expect((await readInbox('team-lead')).map((entry) => (entry as { text: string }).text)).toEqual(
      ['one', 'two'],
    );
  });

  it('warns that a lead without teammates may not read its inbox', async () => {
    await plantTeam(configDir, TEAM);

    const result = await writer().sendMessage({
      team: TEAM,
      to: 'team-lead',
      text: 'anyone there?',
    });

    expect(result.warnings.map((warning) => warning.code)).toEqual(['NO_TEAMMATES']);
    expect(await readInbox('team-lead')).toHaveLength(1);
  });

  it('refuses broadcast, unknown recipients and senders posing as members, and writes nothing', async () => {
    await plantTeam(configDir, TEAM, { teammates: ['worker'] });
    const w = writer();

    const cases: [() => Promise<unknown>, string][] = [
      [() => w.sendMessage({ team: TEAM, to: '*', text: 'all' }), 'BROADCAST_UNSUPPORTED'],
      [() => w.sendMessage({ team: TEAM, to: 'wroker', text: 'hi' }), 'UNKNOWN_RECIPIENT'],
      [
        () => w.sendMessage({ team: TEAM, to: 'worker', text: 'hi', from: 'team-lead' }),
        'IDENTITY_MISMATCH',
      ],
      [
        () => w.sendMessage({ team: TEAM, to: 'worker', text: 'hi', from: 'User' }),
        'IDENTITY_MISMATCH',
      ],
      [
        () => w.sendMessage({ team: TEAM, to: 'team-lead', text: 'hi', from: 'worker' }),
        'IDENTITY_MISMATCH',
      ],
      [
        () => w.sendMessage({ team: TEAM, to: 'worker', text: 'hi', from: '../x' }),
        'INVALID_INPUT',
      ],
      [() => w.sendMessage({ team: TEAM, to: 'worker', text: '  ' }), 'INVALID_INPUT'],
      [
        () => w.sendMessage({ team: TEAM, to: 'worker', text: 'x'.repeat(100_001) }),
        'PAYLOAD_TOO_LARGE',
      ],
      [
        () => w.sendMessage({ team: 'session-00000000', to: 'worker', text: 'hi' }),
        'CLAUDE_TEAM_NOT_FOUND',
      ],
    ];
    for (const [attempt, code] of cases) {
      const error = await errorOf(attempt());
      expect(isTeamkitError(error, code as never), `${code}: ${String(error)}`).toBe(true);
    }
    const inboxes = await readdir(path.join(configDir, 'teams', TEAM, 'inboxes'));
    expect(inboxes).toEqual([]);
  });

  it('refuses a team whose lead ended, whether its folder is left behind or gone', async () => {
    await plantTeam(configDir, TEAM, { leadPid: 9999, teammates: ['worker'] });
    await plantTasks(configDir, 'session-0000dead', { '1': plantedTask('1') });

    const leftBehind = await errorOf(
      writer().sendMessage({ team: TEAM, to: 'worker', text: 'hi' }),
    );
    const gone = await errorOf(
      writer().sendMessage({ team: 'session-0000dead', to: 'worker', text: 'hi' }),
    );

    expect(isTeamkitError(leftBehind, 'CLAUDE_TEAM_NOT_LIVE')).toBe(true);
    expect(isTeamkitError(gone, 'CLAUDE_TEAM_NOT_LIVE')).toBe(true);
    await expect(stat(inboxOf('worker'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('leaves an inbox that is not an array untouched', async () => {
    await plantTeam(configDir, TEAM, { teammates: ['worker'] });
    await plantInbox(configDir, TEAM, 'worker', '{"not": "an array"}');

    const error = await errorOf(writer().sendMessage({ team: TEAM, to: 'worker', text: 'hi' }));

    expect(isTeamkitError(error, 'CORRUPT_DOCUMENT')).toBe(true);
    expect(await readFile(inboxOf('worker'), 'utf8')).toBe('{"not": "an array"}');
  });

  it('waits for a held inbox lock, gives up with LOCK_TIMEOUT, and takes over a stale one', async () => {
    await plantTeam(configDir, TEAM, { teammates: ['worker'] });
    await plantInbox(configDir, TEAM, 'worker', []);
    await mkdir(`${inboxOf('worker')}.lock`);

    const timedOut = await errorOf(
      writer(300).sendMessage({ team: TEAM, to: 'worker', text: 'hi' }),
    );
    expect(isTeamkitError(timedOut, 'LOCK_TIMEOUT')).toBe(true);
    expect(await readInbox('worker')).toEqual([]);

    const old = new Date(Date.now() - 30_000);
    await utimes(`${inboxOf('worker')}.lock`, old, old);
    await writer(5_000).sendMessage({ team: TEAM, to: 'worker', text: 'after the stale lock' });
    expect(await readInbox('worker')).toHaveLength(1);
  });

  it('refuses a team folder that leads outside the config folder through a symlink', async () => {
    const outside = path.join(configDir, '..', `${path.basename(configDir)}-outside`);
    await plantTeam(outside, TEAM, { teammates: ['worker'] });
    await mkdir(path.join(configDir, 'teams'), { recursive: true });
    await symlink(path.join(outside, 'teams', TEAM), path.join(configDir, 'teams', TEAM));
    await writeFile(path.join(outside, 'marker'), '');

    const error = await errorOf(writer().sendMessage({ team: TEAM, to: 'worker', text: 'hi' }));

    expect(isTeamkitError(error, 'PATH_TRAVERSAL')).toBe(true);
    await expect(
      stat(path.join(outside, 'teams', TEAM, 'inboxes', 'worker.json')),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    await rm(outside, { recursive: true, force: true });
  });
});
