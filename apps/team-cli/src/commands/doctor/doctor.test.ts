import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOnPath } from '../../agent-presets/index.js';
import { CLI_BIN, createTempHome, runCli } from '../../test-support/run-cli.js';
import { checkPrograms } from './program-checks.js';

const realGit = findOnPath('git', process.env);
const realTmux = findOnPath('tmux', process.env);

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await createTempHome());
});
afterEach(async () => {
  await cleanup();
});

/** A folder to be the whole PATH, holding links to the named programs. */
function binFolder(name: string, links: Record<string, string>): string {
  const folder = path.join(home, name);
  mkdirSync(folder);
  for (const [command, target] of Object.entries(links)) {
    symlinkSync(target, path.join(folder, command));
  }
  return folder;
}

interface Checked {
  name: string;
  found: boolean;
  path?: string;
  version?: string;
  advice?: string;
}

async function doctorPrograms(pathValue: string): Promise<{ programs: Checked[]; text: string }> {
  const env = { TEAMKIT_HOME: path.join(home, 'teamkit'), PATH: pathValue };
  const json = await runCli(['doctor', '--json'], env);
  expect(json.code, json.stderr).toBe(0);
  const text = await runCli(['doctor'], env);
  expect(text.code, text.stderr).toBe(0);
  return { programs: json.json().programs as Checked[], text: text.stdout };
}

describe.skipIf(realGit === undefined)('team doctor: the programs a run needs', () => {
  it('finds git, and the team bin members will run when it is this CLI', async () => {
    const bin = binFolder('bin', { git: realGit as string, node: process.execPath, team: CLI_BIN });
    const { programs, text } = await doctorPrograms(bin);
    const byName = Object.fromEntries(programs.map((check) => [check.name, check]));
    expect(byName.git).toMatchObject({
      found: true,
      version: expect.stringMatching(/^git version/),
    });
    expect(byName.git?.advice).toBeUndefined();
    expect(byName.team).toMatchObject({ found: true, path: path.join(bin, 'team') });
    expect(byName.team?.advice).toBeUndefined();
    // No tmux in this PATH: a note, not a fix.
    expect(byName.tmux).toMatchObject({
      found: false,
      advice: expect.stringMatching(/background/),
    });
    expect(text).toMatch(/^ {2}ok {3}git: .*git version/m);
    expect(text).toMatch(/^ {2}note tmux: not found$/m);
    expect(text).toMatch(/^ {2}ok {3}team: /m);
  });

  it('says how to put team on PATH when members would not find it', async () => {
    const bin = binFolder('bin', { git: realGit as string, node: process.execPath });
    const { programs, text } = await doctorPrograms(bin);
    const team = programs.find((check) => check.name === 'team');
    expect(team).toMatchObject({ found: false });
    expect(team?.advice).toContain('not on PATH');
    expect(team?.advice).toContain(realpathSync(CLI_BIN));
    expect(text).toMatch(/^ {2}FIX {2}team: not found$/m);
  });

  it('names another team on PATH that members would run instead of this one', async () => {
    const bin = binFolder('bin', { git: realGit as string, node: process.execPath });
    const other = path.join(bin, 'team');
    writeFileSync(other, '#!/bin/sh\necho other\n');
    chmodSync(other, 0o755);
    const { programs } = await doctorPrograms(bin);
    const team = programs.find((check) => check.name === 'team');
    expect(team).toMatchObject({ found: true, path: other });
    expect(team?.advice).toContain(`${other}, not this CLI`);
  });
});

describe.skipIf(realTmux === undefined)('checkPrograms', () => {
  it('reads the version of tmux with -V', () => {
    const tmux = checkPrograms(process.env).find((check) => check.name === 'tmux');
    const expected = spawnSync(realTmux as string, ['-V'], { encoding: 'utf8' }).stdout.trim();
    expect(tmux).toMatchObject({ found: true, version: expected });
  });
});

describe('checkPrograms: the agent presets', () => {
  it('finds a preset program with its version and says how to install a missing one', () => {
    const bin = binFolder('presets', {});
    const claude = path.join(bin, 'claude');
    writeFileSync(claude, '#!/bin/sh\necho "2.1.328 (Claude Code)"\n');
    chmodSync(claude, 0o755);
    const checks = checkPrograms({ PATH: bin }, CLI_BIN);
    const byName = Object.fromEntries(checks.map((check) => [check.name, check]));
    expect(byName.claude).toMatchObject({
      found: true,
      optional: true,
      path: claude,
      version: '2.1.328 (Claude Code)',
    });
    expect(byName.claude?.advice).toBeUndefined();
    expect(byName.codex).toMatchObject({ found: false, optional: true });
    expect(byName.codex?.advice).toContain('npm install -g @openai/codex@0.169.0');
    // The scripted agent is not a preset anyone installs: doctor does not list it.
    expect(checks.map((check) => check.name)).not.toContain('teamkit-agent');
  });

  it('follows TEAMKIT_<NAME>_BIN to a program outside PATH', () => {
    const elsewhere = binFolder('elsewhere', {});
    const codex = path.join(elsewhere, 'my-codex');
    writeFileSync(codex, '#!/bin/sh\necho "codex-cli 0.169.0"\n');
    chmodSync(codex, 0o755);
    const checks = checkPrograms(
      { PATH: binFolder('empty', {}), TEAMKIT_CODEX_BIN: codex },
      CLI_BIN,
    );
    expect(checks.find((check) => check.name === 'codex')).toMatchObject({
      found: true,
      path: codex,
      version: 'codex-cli 0.169.0',
    });
  });
});
