import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRecordedProcess, isSignallablePid } from './check-recorded-process.js';
import { findMemberAncestors } from './member-ancestors.js';
import { listProcessAncestry } from './process-ancestry.js';
import {
  parseProcStat,
  parsePsLine,
  readFromPs,
  readProcessEnvironment,
  readProcessFacts,
} from './process-facts.js';
import { parseProcessSessionId, processSessionId } from './process-session-id.js';
import { signalRecordedProcess } from './signal-recorded-process.js';

const HAS_PROC = existsSync('/proc/self/stat');
if (!HAS_PROC) console.warn('skipping the /proc process tests: this system has no /proc');

const children = new Set<ChildProcess>();
const grandchildren: { pid: number; startedAt: number }[] = [];
afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children.clear();
  // The sleeps they started, each only while it is still the same process.
  for (const { pid, startedAt } of grandchildren.splice(0)) {
    if (readProcessFacts(pid)?.startedAt === startedAt) process.kill(pid, 'SIGKILL');
  }
});

/**
 * Starts a Node process that leads its own group (detached) and has one `sleep` child in
 * it; resolves once the child is running.
 */
async function startGroup(
  env: Record<string, string> = {},
  detached = true,
): Promise<{ pid: number; childPid: number; startedAt: number }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "const c = require('child_process').spawn('sleep', ['600'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1e6);",
    ],
    {
      detached,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  children.add(child);
  const childPid = await new Promise<number>((resolve) =>
    child.stdout?.once('data', (data: Buffer) => resolve(Number(String(data).trim()))),
  );
  const pid = child.pid as number;
  grandchildren.push({ pid: childPid, startedAt: readProcessFacts(childPid)?.startedAt ?? -1 });
  return { pid, childPid, startedAt: readProcessFacts(pid)?.startedAt as number };
}

const alive = (pid: number) => {
  const facts = readProcessFacts(pid);
  return facts !== undefined && facts.state !== 'Z';
};

async function waitUntil(what: string, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(25);
  }
}

describe('process facts', () => {
  it('parses /proc stat lines whose command name holds spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, (_, index) => String(index));
    fields[0] = 'S';
    fields[1] = '41';
    fields[2] = '42';
    fields[19] = '1234';
    const facts = parseProcStat(43, `43 (my (odd) name) ${fields.join(' ')}`, 1_000_000);
    expect(facts).toEqual({
      pid: 43,
      parentPid: 41,
      processGroup: 42,
      state: 'S',
      startedAt: 1_000_000 + 12_340,
    });
  });

  it('parses ps lines read in UTC', () => {
    expect(parsePsLine(9, '    1   77 Ss   Mon Jan  1 12:00:00 2024')).toEqual({
      pid: 9,
      parentPid: 1,
      processGroup: 77,
      state: 'S',
      startedAt: Date.UTC(2024, 0, 1, 12),
    });
    expect(parsePsLine(9, 'garbage')).toBeUndefined();
  });

  it.skipIf(!HAS_PROC)(
    'reads this process: parent, group and a start time that does not move',
    () => {
      const facts = readProcessFacts(process.pid);
      expect(facts?.parentPid).toBe(process.ppid);
      expect(facts?.startedAt).toBeLessThanOrEqual(Date.now());
      expect(readProcessFacts(process.pid)?.startedAt).toBe(facts?.startedAt);
      expect(readProcessFacts(0)).toBeUndefined();
      expect(readProcessFacts(-1)).toBeUndefined();
      const ps = spawnSync('ps', ['-p', String(process.pid)]).status === 0;
      if (ps) {
        const fromPs = readFromPs(process.pid);
        expect(fromPs?.parentPid).toBe(process.ppid);
        expect(Math.abs((fromPs?.startedAt ?? 0) - (facts?.startedAt ?? 0))).toBeLessThan(2_000);
      }
    },
  );

  it.skipIf(!HAS_PROC)('lists ancestors nearest first', () => {
    const chain = listProcessAncestry();
    expect(chain[0]?.pid).toBe(process.pid);
    expect(chain[1]?.pid).toBe(process.ppid);
  });

  it.skipIf(!HAS_PROC)('reads the start environment of a process', async () => {
    const group = await startGroup({ TEAMKIT_MEMBER: 'w1' });
    expect(readProcessEnvironment(group.pid)?.get('TEAMKIT_MEMBER')).toBe('w1');
    expect(readProcessEnvironment(0)).toBeUndefined();
  });
});

describe('process session ids', () => {
  it('round-trip, and refuse ids that name no single process', () => {
    expect(parseProcessSessionId(processSessionId(4242, 1_700_000_000_000))).toEqual({
      pid: 4242,
      startedAt: 1_700_000_000_000,
    });
    for (const id of ['proc-0-1', 'proc--1-1', 'proc-1.5-1', 'proc-99999999999-1', 'ses_1', '']) {
      expect(parseProcessSessionId(id), id).toBeUndefined();
    }
  });
});

describe.skipIf(!HAS_PROC)('checking a recorded process before any signal', () => {
  it('refuses pids that reach more than one process, and this process', () => {
    for (const pid of [-1, 0, 1, 1.5, Number.NaN, 2 ** 60]) {
      expect(isSignallablePid(pid), String(pid)).toBe(false);
      expect(checkRecordedProcess({ pid, startedAt: 0 }).verdict).toBe('not-ours');
    }
    const self = readProcessFacts(process.pid)?.startedAt as number;
    expect(checkRecordedProcess({ pid: process.pid, startedAt: self })).toMatchObject({
      verdict: 'not-ours',
      reason: expect.stringMatching(/own process/),
    });
  });

  it('accepts the recorded process and refuses a reused pid or missing marks', async () => {
    const group = await startGroup({ TEAMKIT_MEMBER: 'w1' });
    const record = { pid: group.pid, startedAt: group.startedAt };
    expect(checkRecordedProcess(record, { environment: { TEAMKIT_MEMBER: 'w1' } })).toMatchObject({
      verdict: 'ours',
      leadsGroup: true,
    });
    expect(
      checkRecordedProcess({ pid: group.pid, startedAt: group.startedAt - 60_000 }),
    ).toMatchObject({ verdict: 'not-ours', reason: expect.stringMatching(/another process/) });
    expect(checkRecordedProcess(record, { environment: { TEAMKIT_MEMBER: 'w2' } })).toMatchObject({
      verdict: 'not-ours',
      reason: expect.stringMatching(/TEAMKIT_MEMBER/),
    });
    expect(
      checkRecordedProcess(record, { environment: { TEAMKIT_HOME: (value) => value !== '' } }),
    ).toMatchObject({ verdict: 'not-ours', reason: expect.stringMatching(/not set/) });
  });

  it('calls a process that ended gone', async () => {
    const group = await startGroup();
    process.kill(-group.pid, 'SIGKILL');
    await waitUntil('the group to end', () => !alive(group.pid));
    expect(checkRecordedProcess({ pid: group.pid, startedAt: group.startedAt }).verdict).not.toBe(
      'ours',
    );
  });
});

describe.skipIf(!HAS_PROC)('signalling a recorded process', () => {
  it('never signals a bystander: reused pid, foreign group, or pid 1 and below', async () => {
    const bystander = await startGroup();
    for (const record of [
      { pid: bystander.pid, startedAt: bystander.startedAt - 3_600_000 },
      { pid: -1, startedAt: 0 },
      { pid: 0, startedAt: 0 },
      { pid: 1, startedAt: readProcessFacts(1)?.startedAt ?? 0 },
    ]) {
      expect(signalRecordedProcess(record, 'SIGKILL', { group: true }).outcome).toBe('refused');
    }
    // Its true start time, but not started with the marks the caller expects.
    const foreign = signalRecordedProcess(
      { pid: bystander.pid, startedAt: bystander.startedAt },
      'SIGKILL',
      { group: true, environment: { TEAMKIT_MEMBER: 'w1' } },
    );
    expect(foreign).toMatchObject({ outcome: 'refused' });
    expect(alive(bystander.pid) && alive(bystander.childPid)).toBe(true);
  });

  it('signals the group it created through its verified leader', async () => {
    const member = await startGroup({ TEAMKIT_MEMBER: 'w1' });
    const outcome = signalRecordedProcess(
      { pid: member.pid, startedAt: member.startedAt },
      'SIGKILL',
      { group: true, environment: { TEAMKIT_MEMBER: 'w1' } },
    );
    expect(outcome).toEqual({ outcome: 'signalled', target: 'group', pid: member.pid });
    await waitUntil('the whole group to end', () => !alive(member.pid) && !alive(member.childPid));
  });

  it('signals only the process when it no longer leads its own group', async () => {
    const sibling = await startGroup({}, false);
    const member = await startGroup({ TEAMKIT_MEMBER: 'w1' }, false);
    const outcome = signalRecordedProcess(
      { pid: member.pid, startedAt: member.startedAt },
      'SIGKILL',
      { group: true, environment: { TEAMKIT_MEMBER: 'w1' } },
    );
    expect(outcome).toMatchObject({ outcome: 'signalled', target: 'process' });
    await waitUntil('the member to end', () => !alive(member.pid));
    expect(alive(sibling.pid)).toBe(true);
    expect(alive(process.pid)).toBe(true);
  });
});

describe.skipIf(!HAS_PROC)('member ancestors', () => {
  it('finds a member in the start environment of an ancestor whose variables a child removed', () => {
    const script = [
      "const { spawnSync } = require('child_process');",
      `const run = spawnSync(process.execPath, ['--input-type=module', '-e', ${JSON.stringify(
        `import { findMemberAncestors } from '@teamkit/team-core/processes'; console.log(JSON.stringify(findMemberAncestors().map((a) => [a.member, a.runId, a.home])));`,
      )}], { env: { PATH: process.env.PATH }, encoding: 'utf8', cwd: process.cwd() });`,
      'process.stdout.write(run.stdout + run.stderr);',
    ].join('\n');
    const run = spawnSync(process.execPath, ['-e', script], {
      env: {
        PATH: process.env.PATH ?? '',
        TEAMKIT_HOME: '/h',
        TEAMKIT_RUN: 'r',
        TEAMKIT_MEMBER: 'w1',
      },
      encoding: 'utf8',
      cwd: new URL('../..', import.meta.url).pathname,
    });
    expect(JSON.parse(run.stdout.trim())).toEqual([['w1', 'r', '/h']]);
    expect(findMemberAncestors().every((ancestor) => ancestor.member !== '')).toBe(true);
  });
});
