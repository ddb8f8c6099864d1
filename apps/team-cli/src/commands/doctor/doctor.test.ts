import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_BIN, createTempHome, runCli } from '../../test-support/run-cli.js';
import { checkPrograms, findOnPath } from './program-checks.js';

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
