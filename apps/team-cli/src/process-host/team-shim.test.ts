import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTeamShim, prependToPath, teamShimText } from './team-shim.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'teamkit-shim-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A stand-in for the CLI's bin.js, in a folder whose name a shell would misread. */
function fakeBin(): string {
  const folder = path.join(root, `it's a "dir" $(touch pwned) ;x`);
  mkdirSync(folder, { recursive: true });
  const bin = path.join(folder, 'bin.js');
  writeFileSync(bin, 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n');
  return bin;
}

describe('the team shim on members’ PATH', () => {
  it('runs this CLI with every argument intact, is private, and is found first on PATH', async () => {
    const home = mkdtempSync(path.join(root, 'home-'));
    const command = { node: process.execPath, bin: fakeBin() };
    const folder = await ensureTeamShim(home, command);
    const shim = path.join(folder, 'team');
    expect(statSync(shim).mode & 0o777).toBe(0o700);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(folder)).mode & 0o777).toBe(0o700);
    const args = ['send', '--to', 'lead', `it's "quoted" $(touch pwned2) \`x\` ;`];
    const out = execFileSync('team', args, {
      env: { PATH: prependToPath(folder, process.env.PATH), HOME: home },
      cwd: root,
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual(args);
    expect(() => statSync(path.join(root, 'pwned'))).toThrow();
    expect(() => statSync(path.join(root, 'pwned2'))).toThrow();
    // Idempotent, and another install gets a folder of its own.
    expect(await ensureTeamShim(home, command)).toBe(folder);
    const other = await ensureTeamShim(home, { ...command, bin: `${command.bin}x` });
    expect(other).not.toBe(folder);
    expect(readFileSync(shim, 'utf8')).toBe(teamShimText(command));
  });

  it('replaces a planted link instead of writing through it, and refuses a linked folder', async () => {
    const home = mkdtempSync(path.join(root, 'home-'));
    const command = { node: process.execPath, bin: fakeBin() };
    const folder = await ensureTeamShim(home, command);
    const decoy = path.join(root, 'decoy.txt');
    writeFileSync(decoy, 'untouched');
    const shim = path.join(folder, 'team');
    rmSync(shim);
    symlinkSync(decoy, shim);
    await ensureTeamShim(home, command);
    expect(readFileSync(decoy, 'utf8')).toBe('untouched');
    expect(lstatSync(shim).isSymbolicLink()).toBe(false);

    const planted = mkdtempSync(path.join(root, 'home-'));
    const elsewhere = mkdtempSync(path.join(root, 'elsewhere-'));
    symlinkSync(elsewhere, path.join(planted, 'bin'));
    await expect(ensureTeamShim(planted, command)).rejects.toMatchObject({
      code: 'PATH_TRAVERSAL',
    });
    expect(execFileSync('ls', ['-A', elsewhere], { encoding: 'utf8' })).toBe('');
  });

  it('puts the folder first on PATH once', () => {
    expect(prependToPath('/s', '/a:/s:/b')).toBe('/s:/a:/b');
    expect(prependToPath('/s', undefined)).toBe('/s');
  });
});
