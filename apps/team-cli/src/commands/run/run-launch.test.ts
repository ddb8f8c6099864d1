import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempHome, runCli } from '../../test-support/run-cli.js';

// How `team run start` decides each member's agent, what --dry-run prints, and that every
// process that starts members later (the background supervisor) starts them the same way.

const WAITING_AGENT = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '__fixtures__',
  'waiting-agent.mjs',
);

let home: string;
let cleanup: () => Promise<void>;
const started: string[] = [];
beforeEach(async () => {
  ({ home, cleanup } = await createTempHome());
});
afterEach(async () => {
  for (const runId of started.splice(0))
    await runCli(
      ['run', 'stop', runId, '--force', '--home', home, '--json'],
      {},
      { timeoutMs: 60_000 },
    );
  await cleanup();
});

const team = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--home', home, '--json'], env, { timeoutMs: 60_000 });

function writeTeam(id: string, manifest: string, files: Record<string, string> = {}, policy = '') {
  const folder = path.join(home, 'teams', id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'team.yaml'), manifest);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(folder, name), text);
  if (policy !== '') writeFileSync(path.join(folder, 'policy.yaml'), policy);
  writeFileSync(
    path.join(home, 'config.json'),
    JSON.stringify({ version: 1, teams: [{ path: `@teams/${id}` }] }),
  );
}

/** A PATH whose only agent CLIs are stand-ins named after the presets given. */
function fakeAgentsPath(names: string[]): string {
  const bin = path.join(home, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  for (const name of names) {
    writeFileSync(path.join(bin, name), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(bin, name), 0o755);
  }
  return `${bin}:/usr/bin:/bin`;
}

const MIXED = `id: mixed
name: mixed
lead: lead
agent: claude
members:
  - name: lead
    role: lead
  - name: coder
    role: implementer
    agent: codex
    model: gpt-5.5
  - name: checker
    role: reviewer
    agent: checker.agent.md
`;
const MIXED_FILES = {
  'lead.agent.md': 'You lead.\n',
  'coder.agent.md': 'You code.\n',
  'checker.agent.md': '---\nagent: opencode\nmodel: mock/m1\n---\nYou check.\n',
};

describe('team run start: agents', () => {
  it('mixes agents from team.yaml and front matter, and --dry-run prints each exact command without starting anything', async () => {
    writeTeam('mixed', MIXED, MIXED_FILES);
    const PATH = fakeAgentsPath(['claude', 'codex', 'opencode']);
    const result = await team(['run', 'start', 'mixed', '--dry-run'], { PATH });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const members = result.json().members as {
      member: string;
      agent: string;
      mode: string;
      model?: string;
      process: string[];
      firstTurn: string[];
      env: Record<string, string>;
    }[];
    expect(members.map((m) => [m.member, m.agent, m.mode, m.model])).toEqual([
      ['lead', 'claude', 'turns', undefined],
      ['coder', 'codex', 'turns', 'gpt-5.5'],
      ['checker', 'opencode', 'turns', 'mock/m1'],
    ]);
    const bin = path.join(home, 'fake-bin');
    expect(members[0]?.firstTurn.slice(0, 3)).toEqual([path.join(bin, 'claude'), '-p', '<prompt>']);
    expect(members[0]?.process.at(-1)).toBe('member-turns');
    expect(members[1]?.firstTurn).toContain('model="gpt-5.5"');
    expect(members[2]?.env.OPENCODE_CONFIG).toContain(
      path.join('agents', 'checker', 'opencode.json'),
    );
    expect(existsSync(path.join(home, 'runtime'))).toBe(false);

    const text = await runCli(['run', 'start', 'mixed', '--dry-run', '--home', home], { PATH });
    expect(text.stdout).toContain('coder: codex (one process per turn), model gpt-5.5');
    expect(text.stdout).toContain(`first turn: ${path.join(bin, 'claude')} -p \\<prompt\\>`);
  });

  it('--agent wins over the team; a preset whose CLI is missing is AGENT_NOT_FOUND', async () => {
    writeTeam('mixed', MIXED, MIXED_FILES);
    const PATH = fakeAgentsPath(['gemini']);
    const all = await team(['run', 'start', 'mixed', '--dry-run', '--agent', 'gemini'], { PATH });
    expect(all.code, all.stdout + all.stderr).toBe(0);
    expect((all.json().members as { agent: string }[]).map((m) => m.agent)).toEqual([
      'gemini',
      'gemini',
      'gemini',
    ]);
    const missing = await team(['run', 'start', 'mixed', '--dry-run'], { PATH });
    expect(missing.code).toBe(3);
    expect(missing.json()).toMatchObject({ ok: false, error: { code: 'AGENT_NOT_FOUND' } });
    const unknown = await team(['run', 'start', 'mixed', '--agent', 'claud'], { PATH });
    expect(unknown.code).toBe(2);
    expect(JSON.stringify(unknown.json())).toContain(
      'claude, codex, opencode, gemini, teamkit-agent',
    );
  });

  it('refuses to start a team without an agent, naming the agent CLIs found on PATH', async () => {
    writeTeam(
      'plain',
      'id: plain\nname: plain\nlead: lead\nmembers:\n  - name: lead\n    prompt: hi\n',
    );
    const result = await team(['run', 'start', 'plain'], {
      PATH: fakeAgentsPath(['codex', 'opencode']),
    });
    expect(result.code).toBe(2);
    const { error } = result.json() as unknown as { error: { code: string; message: string } };
    expect(error.code).toBe('AGENT_NOT_CONFIGURED');
    expect(error.message).toContain('Found on PATH: codex, opencode.');
    expect(existsSync(path.join(home, 'runtime'))).toBe(false);
  });

  it('the background supervisor starts members waiting for the parallel bound with the run’s own command', async () => {
    const names = ['lead', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
    writeTeam(
      'seven',
      `id: seven\nname: seven\nlead: lead\nmembers:\n${names.map((name) => `  - name: ${name}\n    prompt: You are ${name}.\n`).join('')}`,
      {},
      'bounds:\n  maxMembers: 7\n  maxParallelMembers: 1\n',
    );
    const log = path.join(home, 'started.jsonl');
    const result = await team([
      'run',
      'start',
      'seven',
      '--no-tmux',
      '--agent-cmd',
      `'${process.execPath}' '${WAITING_AGENT}' '${log}' custom`,
      '--agent-cmd-mode',
      'long-lived',
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const runId = result.json().runId as string;
    started.push(runId);
    expect((result.json().waiting as string[]).length).toBeGreaterThan(0);
    const deadline = Date.now() + 90_000;
    let lines: { member: string; tag: string; team: string }[] = [];
    while (Date.now() < deadline) {
      lines = existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line))
        : [];
      if (lines.length >= names.length) break;
      await delay(200);
    }
    expect(lines.map((line) => line.member).sort()).toEqual([...names].sort());
    expect(lines.every((line) => line.tag === 'custom')).toBe(true);
    // `team` on each member's PATH is the shim of this very CLI, under the Teamkit home.
    for (const line of lines) expect(line.team.startsWith(path.join(home, 'bin'))).toBe(true);
    const launch = JSON.parse(
      readFileSync(path.join(home, 'runtime', runId, 'launch.json'), 'utf8'),
    );
    expect(launch.members.w6).toMatchObject({ kind: 'command', mode: 'long-lived' });
    const spawns = readdirSync(path.join(home, 'runtime', runId, 'spawns'));
    expect(spawns.filter((name) => name.endsWith('.json'))).toHaveLength(names.length);
  }, 150_000);
});
