import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTeamCommand } from '../process-host/team-shim.js';
import { gitWritableRoots, prepareTurnAgent, writePresetFiles } from './prepare-turn-agent.js';

let root: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(async () => {
  root = realpathSync(await mkdtemp(path.join(os.tmpdir(), 'teamkit-writable-roots-')));
  const repo = path.join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  git(
    repo,
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@teamkit.invalid',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'init',
  );
  git(repo, 'worktree', 'add', '-q', '-b', 'work', path.join(root, 'member'));
  mkdirSync(path.join(root, 'plain'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('gitWritableRoots', () => {
  it("names a linked worktree's own git folder besides the common one", () => {
    // Codex keeps the folder a worktree's `.git` file points to read-only unless it is a
    // writable root itself: without it, a member's `git commit` fails on `index.lock`.
    expect(gitWritableRoots(path.join(root, 'member'))).toEqual([
      path.join(root, 'repo', '.git'),
      path.join(root, 'repo', '.git', 'worktrees', 'member'),
    ]);
  });

  it('names the git folder once in a main checkout, and nothing outside git', () => {
    expect(gitWritableRoots(path.join(root, 'repo'))).toEqual([path.join(root, 'repo', '.git')]);
    expect(gitWritableRoots(path.join(root, 'plain'))).toEqual([]);
  });
});

describe('prepareTurnAgent', () => {
  it("serves a member's MCP tools with this CLI's own `team mcp`, which opens the home's store", () => {
    // The bare teamkit-mcp program reads runs from the home folder only: a member of a run
    // kept in NATS got RUN_NOT_FOUND and its CLI never started a turn.
    const agent = prepareTurnAgent({
      home: path.join(root, 'home'),
      runId: 'r1',
      teamName: 't',
      member: { name: 'w1', role: 'worker', isLead: false },
      cwd: path.join(root, 'member'),
      launch: { kind: 'preset', preset: 'codex', program: '/opt/bin/codex' },
      promptFile: path.join(root, 'home', 'w1.md'),
    });
    const argv = agent.turnArgv({ prompt: 'go' });
    const { node, bin } = currentTeamCommand();
    expect(argv).toContain(`mcp_servers.teamkit.command=${JSON.stringify(node)}`);
    expect(argv).toContain(
      `mcp_servers.teamkit.args=${JSON.stringify([bin, 'mcp', '--tools', 'member', '--host', 'codex'])}`,
    );
    expect(argv.find((arg) => arg.startsWith('mcp_servers.teamkit.env_vars='))).toContain(
      '"TEAMKIT_STORE"',
    );
  });
});

describe('writePresetFiles', () => {
  it('replaces a link planted at a file of the member, never writing through it', async () => {
    const home = path.join(root, 'home');
    const outside = path.join(root, 'outside.txt');
    writeFileSync(outside, 'untouched\n');
    const file = path.join(home, 'runtime', 'run', 'agents', 'worker', 'mcp.json');
    mkdirSync(path.dirname(file), { recursive: true });
    symlinkSync(outside, file);
    await writePresetFiles(home, [{ path: file, text: '{}\n' }]);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
    expect(readFileSync(outside, 'utf8')).toBe('untouched\n');
  });

  it('refuses a path outside the home', async () => {
    const home = path.join(root, 'home');
    await expect(
      writePresetFiles(home, [{ path: path.join(root, 'elsewhere.json'), text: '{}' }]),
    ).rejects.toMatchObject({ code: 'PATH_TRAVERSAL' });
  });
});
