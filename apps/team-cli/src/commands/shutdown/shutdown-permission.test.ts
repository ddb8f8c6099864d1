import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { TeamSpecSchema } from '@teamkit/team-core/schema';
import { createRunState, transitionRun } from '@teamkit/team-core/state';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberEnvironment, readStateFile } from '../../test-support/member-environment.js';
import { createTempHome, runCli } from '../../test-support/run-cli.js';
import { writeTestTeam } from '../../test-support/test-team.js';

// `team shutdown …`, `team permission …`, `team ack` with short ids, `team --version` and
// the host-kind guard of `run supervise`, against a real run of idle member processes.
// Identity comes from each member's own process environment, never from an argument.

const IDLE_AGENT = 'sleep 600';
let home: string;
let cleanup: () => Promise<void>;
let runId: string;
const team = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--home', home, '--json'], env);
const asMember = (member: string) => memberEnvironment(home, runId, member);
const errorCode = (result: { json: () => Record<string, unknown> }) =>
  (result.json().error as { code: string } | undefined)?.code;

beforeAll(async () => {
  ({ home, cleanup } = await createTempHome());
  await writeTestTeam(home, { id: 'trio', lead: 'lead', members: ['lead', 'w1', 'w2'] });
  const started = await team(['run', 'start', 'trio', '--agent-cmd', IDLE_AGENT]);
  expect(started.code, started.stdout + started.stderr).toBe(0);
  runId = started.json().runId as string;
}, 120_000);

afterAll(async () => {
  if (runId !== undefined) await team(['run', 'stop', runId, '--force']);
  await cleanup();
}, 120_000);

describe('team shutdown', () => {
  it('asks one member by name and gives the request an id its answer may name', async () => {
    const asked = await runCli(
      ['shutdown', 'request', 'w1', '--reason', 'done', '--json'],
      asMember('lead'),
    );
    expect(asked.code, asked.stdout + asked.stderr).toBe(0);
    const request = (asked.json().requests as { member: string; id: string }[])[0];
    expect(request?.member).toBe('w1');
    expect(request?.id).toMatch(/^[0-9a-f-]{8,}/);
    // Another member cannot answer w1's request: it has none of its own.
    const other = await runCli(['shutdown', 'approve', '--json'], asMember('w2'));
    expect(other.code).not.toBe(0);
    const rejected = await runCli(
      ['shutdown', 'reject', String(request?.id), '--reason', 'one more test', '--json'],
      asMember('w1'),
    );
    expect(rejected.code, rejected.stdout + rejected.stderr).toBe(0);
    expect(readStateFile(home, runId).members.find((m) => m.name === 'w1')?.status).not.toBe(
      'terminated',
    );
  });

  it('refuses shutting everyone down to a member, and the run left out to the user', async () => {
    // The shutdown_request tool's roles refuse it, as they do over MCP.
    const member = await runCli(['shutdown', 'request', '*', '--json'], asMember('w2'));
    expect(errorCode(member)).toBe('NOT_LEAD');
    const noRun = await team(['shutdown', 'request']);
    expect(noRun.code).toBe(2);
    expect(noRun.stdout + noRun.stderr).toContain('Name the run first');
    const wrongRun = await team(['shutdown', 'request', 'w1']);
    expect(errorCode(wrongRun)).toBe('RUN_NOT_FOUND');
    expect(JSON.stringify(wrongRun.json())).toContain('is not a run id');
  });
});

describe('team permission', () => {
  it('takes a member request, lists it, and lets only the lead or the user decide it', async () => {
    const asked = await runCli(
      ['permission', 'request', '--action', 'write', '--path', '/etc/hosts', '--json'],
      asMember('w1'),
    );
    expect(asked.code, asked.stdout + asked.stderr).toBe(0);
    const id = (asked.json().request as { id: string }).id;
    const pending = await team(['permission', 'list', runId, '--pending']);
    expect(pending.json().requests).toMatchObject([{ id, member: 'w1', status: 'pending' }]);
    const own = await runCli(['permission', 'list', '--json'], asMember('w2'));
    expect(own.json().requests).toEqual([]);
    const byWorker = await runCli(['permission', 'approve', id, '--json'], asMember('w2'));
    expect(errorCode(byWorker)).toBe('NOT_LEAD');
    const unknown = await team(['permission', 'deny', runId, 'ffffffff']);
    expect(errorCode(unknown)).toBe('UNKNOWN_REQUEST');
    const approved = await team(['permission', 'approve', runId, id.slice(0, 8), '--remember']);
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    const listed = await team(['permission', 'list', runId]);
    expect(listed.json().requests).toMatchObject([{ id, status: 'approved' }]);
  });
});

describe('team ack and the user inbox', () => {
  it('reads mail to `user` and acknowledges it by the short id send printed', async () => {
    const sent = await runCli(['send', '--to', 'user', 'the tests pass', '--json'], asMember('w2'));
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    const messageId = sent.json().messageId as string;
    const inbox = await team(['inbox', runId]);
    expect(JSON.stringify(inbox.json())).toContain('the tests pass');
    const missing = await team(['ack', runId, 'abcdef12']);
    expect(errorCode(missing)).toBe('UNKNOWN_MESSAGE');
    const acked = await team(['ack', runId, messageId.slice(0, 8)]);
    expect(acked.code, acked.stdout + acked.stderr).toBe(0);
    expect(acked.json().acknowledged).toEqual([messageId]);
  });
});

describe('team --version and run supervise', () => {
  it('prints the package version', async () => {
    const version = await runCli(['--version']);
    const pkg = JSON.parse(
      await readFile(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
    ) as { version: string };
    expect(version.stdout.trim()).toBe(pkg.version);
    expect((await runCli(['--json', '--version'])).json()).toEqual({
      ok: true,
      version: pkg.version,
    });
  });

  it('leaves a run another kind of host started to that host: supervise, sweep', async () => {
    const spec = TeamSpecSchema.parse({
      id: 'elsewhere',
      name: 'Elsewhere',
      lead: 'lead',
      members: [{ name: 'lead', role: 'lead', prompt: 'You lead.' }],
    });
    const state = await createRunState(
      home,
      {
        spec,
        teamSource: { scope: 'inline' },
        hostId: 'opencode',
      },
      { store: createFileStore({ root: home }) },
    );
    await transitionRun(home, state.runId, 'active', { store: createFileStore({ root: home }) });
    const refused = await team(['run', 'supervise', state.runId]);
    expect(errorCode(refused)).toBe('HOST_MISMATCH');
    expect(readStateFile(home, state.runId).status).toBe('active');
    // Its host cleaned it up; sweeping it is left to that host unless --all-hosts.
    await transitionRun(home, state.runId, 'deleting', { store: createFileStore({ root: home }) });
    await transitionRun(home, state.runId, 'deleted', { store: createFileStore({ root: home }) });
    const kept = await team(['run', 'sweep']);
    expect(kept.json().report).toMatchObject({ removed: [], skipped: [{ runId: state.runId }] });
    const swept = await team(['run', 'sweep', '--all-hosts']);
    expect(swept.json().report).toMatchObject({ removed: [{ runId: state.runId }] });
  });
});
