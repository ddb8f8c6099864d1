import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../../errors/index.js';
import { TeamPolicySchema } from '../../schema/index.js';
import { readRunState } from '../../state/index.js';
import { createFileStore } from '../../storage/index.js';
import { createTeamRuntime } from '../create-team-runtime.js';
import {
  crewTeam,
  makeRuntimeHome,
  recordingHost,
  writeGlobalSettings,
} from '../test-support/recording-host.js';
import { policyUnderSettings } from './run-spec.js';

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await makeRuntimeHome());
});
afterEach(async () => cleanup());

const DEFAULTS = {
  'mailbox.payloadMaxBytes': 32_768,
  'mailbox.unreadMaxBytes': 262_144,
  'mailbox.broadcast': 'lead-only',
} as const;

async function startCrew(policy: Record<string, unknown> = {}) {
  const runtime = await createTeamRuntime({
    store: createFileStore({ root: home }),
    home,
    host: recordingHost(),
  });
  const { runId } = await runtime.startRun(
    { ...crewTeam(2), policy },
    { leadSessionId: 'lead-session' },
  );
  return { runtime, runId };
}

describe('policyUnderSettings', () => {
  it('takes the stricter of the team policy and the mailbox settings, field by field', () => {
    const policy = TeamPolicySchema.parse({
      payloadMaxBytes: 1_000,
      unreadMaxBytes: 500_000,
      broadcast: 'everyone',
    });
    expect(
      policyUnderSettings(policy, { ...DEFAULTS, 'mailbox.broadcast': 'everyone' }),
    ).toMatchObject({ payloadMaxBytes: 1_000, unreadMaxBytes: 262_144, broadcast: 'everyone' });
    expect(policyUnderSettings(policy, DEFAULTS).broadcast).toBe('lead-only');
    const leadOnly = TeamPolicySchema.parse({ broadcast: 'lead-only' });
    expect(
      policyUnderSettings(leadOnly, { ...DEFAULTS, 'mailbox.broadcast': 'everyone' }).broadcast,
    ).toBe('lead-only');
  });
});

describe('mailbox settings in a run', () => {
  it('caps message bodies by the smaller of the policy and the setting (setting: mailbox.payloadMaxBytes)', async () => {
    await writeGlobalSettings(home, { 'mailbox.payloadMaxBytes': 1_024 });
    const { runtime, runId } = await startCrew({ payloadMaxBytes: 8_192 });
    expect(
      (await readRunState(home, runId, { store: createFileStore({ root: home }) })).policy
        .payloadMaxBytes,
    ).toBe(1_024);
    const error = await runtime
      .member(runId, 'lead')
      .send({ to: 'worker-1', body: 'x'.repeat(2_000) })
      .catch((caught) => caught);
    expect(isTeamkitError(error, 'PAYLOAD_TOO_LARGE')).toBe(true);
    expect(error.details).toMatchObject({ payloadMaxBytes: 1_024 });
  });

  it('keeps the team policy when it is the stricter one', async () => {
    await writeGlobalSettings(home, { 'mailbox.payloadMaxBytes': 65_536 });
    const { runId } = await startCrew({ payloadMaxBytes: 2_048 });
    expect(
      (await readRunState(home, runId, { store: createFileStore({ root: home }) })).policy
        .payloadMaxBytes,
    ).toBe(2_048);
  });

  it('caps unread bytes per inbox by the smaller of the two (setting: mailbox.unreadMaxBytes)', async () => {
    await writeGlobalSettings(home, { 'mailbox.unreadMaxBytes': 2_048 });
    const { runtime, runId } = await startCrew({ unreadMaxBytes: 1_048_576 });
    expect(
      (await readRunState(home, runId, { store: createFileStore({ root: home }) })).policy
        .unreadMaxBytes,
    ).toBe(2_048);
    const lead = runtime.member(runId, 'lead');
    await lead.send({ to: 'worker-1', body: 'y'.repeat(1_500) });
    const error = await lead
      .send({ to: 'worker-1', body: 'y'.repeat(1_500) })
      .catch((caught) => caught);
    expect(isTeamkitError(error, 'RECIPIENT_BACKPRESSURE')).toBe(true);
    expect(error.message).toContain('unread cap of 2048 bytes');
  });

  it('lets only the lead broadcast when either the policy or the setting says so (setting: mailbox.broadcast)', async () => {
    await writeGlobalSettings(home, { 'mailbox.broadcast': 'lead-only' });
    const { runtime, runId } = await startCrew({ broadcast: 'everyone' });
    const error = await runtime
      .member(runId, 'worker-1')
      .send({ to: '*', body: 'hello all' })
      .catch((caught) => caught);
    expect(isTeamkitError(error, 'BROADCAST_NOT_PERMITTED')).toBe(true);
    const everyone = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
      settings: { 'mailbox.broadcast': 'everyone' },
    });
    const second = await everyone.startRun(
      { ...crewTeam(2), policy: { broadcast: 'everyone' } },
      { leadSessionId: 'lead-2' },
    );
    const sent = await everyone.member(second.runId, 'worker-1').send({ to: '*', body: 'hi' });
    expect(sent.delivered.sort()).toEqual(['lead', 'worker-2']);
  });
});

describe('built-in teams', () => {
  it('starts a built-in team by id though the config does not list it', async () => {
    // No global config: the packaged template lists coding-team only.
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
      env: {},
    });
    const result = await runtime.startRun('duo', { leadSessionId: 'lead-session' });
    expect(result.state.teamName).toBe('duo');
    expect(result.state.teamSource.scope).toBe('builtin');
    expect(result.state.members.map((member) => member.name).sort()).toEqual([
      'implementer',
      'reviewer',
    ]);
  });

  it('names the enabled and the built-in teams when an id is unknown', async () => {
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
      env: {},
    });
    const error = await runtime.startRun('nonesuch').catch((caught) => caught);
    expect(isTeamkitError(error, 'TEAM_NOT_FOUND')).toBe(true);
    expect(error.message).toContain('enabled teams: coding-team');
    expect(error.message).toContain('built-in teams: coding-team, solo, duo, squad');
  });

  it('refuses a built-in team the config switched off', async () => {
    await writeGlobalSettings(home, {});
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      `${home}/config.json`,
      JSON.stringify({ version: 1, teams: [{ id: 'coding-team' }, { id: 'duo', enabled: false }] }),
    );
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
      env: {},
    });
    const error = await runtime.startRun('duo').catch((caught) => caught);
    expect(isTeamkitError(error, 'TEAM_NOT_FOUND')).toBe(true);
    expect(error.message).toContain('disabled');
  });
});
