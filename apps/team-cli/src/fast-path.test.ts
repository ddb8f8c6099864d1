import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFastRunStatus } from './fast-path.js';
import { memberEnvironment } from './test-support/member-environment.js';
import { CLI_BIN, type CliResult, createTempHome, runCli } from './test-support/run-cli.js';
import { writeTestTeam } from './test-support/test-team.js';

// The same command line through `main` alone: the commander program, no fast path.
const MAIN_ONLY = [
  fileURLToPath(new URL('./__fixtures__/main-only.mjs', import.meta.url)),
  path.join(path.dirname(CLI_BIN), 'main.js'),
];

// A run's age is printed to the second; two calls may straddle a second.
const steady = (text: string) => text.replace(/\b(\d+m)?\d+s\b/g, '<age>');

interface Both {
  fast: CliResult;
  full: CliResult;
}

async function both(args: string[], env: Record<string, string> = {}): Promise<Both> {
  const [fast, full] = await Promise.all([
    runCli(args, env),
    runCli(args, env, { entry: MAIN_ONLY }),
  ]);
  return { fast, full };
}

function expectSame({ fast, full }: Both): void {
  expect({ code: fast.code, stdout: steady(fast.stdout), stderr: steady(fast.stderr) }).toEqual({
    code: full.code,
    stdout: steady(full.stdout),
    stderr: steady(full.stderr),
  });
}

describe('parseFastRunStatus', () => {
  const line = (...words: string[]) => parseFastRunStatus(['node', 'team', ...words]);

  it('takes `run status` with a run, --json and --home in any order', () => {
    expect(line('run', 'status')).toEqual({ args: [], options: {} });
    expect(line('run', 'status', '--json', 'abcd', '--home', 'h')).toEqual({
      args: ['abcd'],
      options: { json: true, home: 'h' },
    });
    expect(line('run', 'status', '--home=h', 'abcd')).toEqual({
      args: ['abcd'],
      options: { home: 'h' },
    });
  });

  it('leaves every other line to commander', () => {
    for (const words of [
      ['run', 'list'],
      ['status'],
      ['run', 'status', '--help'],
      ['run', 'status', '-h'],
      ['run', 'status', '--bogus'],
      ['run', 'status', '--version'],
      ['run', 'status', 'a', 'b'],
      ['run', 'status', '--', 'a'],
      ['run', 'status', '--home'],
      ['run', 'status', '--home='],
      ['run', 'status', '--home', '--json'],
      ['run', 'status', '--json=1'],
      ['--json', 'run', 'status'],
    ]) {
      expect(line(...words), words.join(' ')).toBeUndefined();
    }
  });
});

describe('team run status answers the same with and without the fast path', () => {
  let empty: { home: string; cleanup: () => Promise<void> };
  let busy: { home: string; cleanup: () => Promise<void> };
  const runs: string[] = [];

  beforeAll(async () => {
    empty = await createTempHome();
    busy = await createTempHome();
    await writeTestTeam(busy.home, { id: 'pair', lead: 'lead', members: ['lead', 'helper'] });
    for (let index = 0; index < 2; index += 1) {
      const started = await runCli([
        'run',
        'start',
        'pair',
        '--agent-cmd',
        'sleep 600',
        '--no-tmux',
        '--json',
        '--home',
        busy.home,
      ]);
      expect(started.code, started.stderr + started.stdout).toBe(0);
      runs.push(started.json().runId as string);
    }
  });

  afterAll(async () => {
    for (const runId of runs) {
      await runCli(['run', 'stop', runId, '--force', '--json', '--home', busy.home]);
    }
    await empty?.cleanup();
    await busy?.cleanup();
  });

  it('takes the fast path: commander never loads, and the bundled path loads three modules', async () => {
    const traced = await runCli(['run', 'status', '--json', '--home', empty.home], {
      NODE_DEBUG: 'esm',
    });
    expect(traced.code).toBe(0);
    // The trace names each module it loads. The build bundles the path to this answer into
    // dist/fast-path.js (scripts/bundle-fast-path.mjs); only what must stay one module
    // (an error class) loads apart.
    const loaded = [...traced.stderr.matchAll(/Storing (file:\S+)/g)].map(
      ([, url]) => url as string,
    );
    expect(loaded.some((url) => url.includes('commander'))).toBe(false);
    expect(loaded.map((url) => url.replace(/^.*\/dist\//, ''))).toEqual([
      'bin.js',
      'fast-path.js',
      'usage-error.js',
    ]);
  });

  it('on an empty home, a missing one, and through TEAMKIT_HOME', async () => {
    const missing = path.join(empty.home, 'not-made-yet');
    for (const args of [
      ['run', 'status', '--home', empty.home],
      ['run', 'status', '--json', '--home', empty.home],
      ['run', 'status', `--home=${empty.home}`, '--json'],
      ['run', 'status', '--json', '--home', missing],
      ['run', 'status', 'abcd1234', '--json', '--home', empty.home],
      ['run', 'status', 'abcd1234', '--home', empty.home],
    ]) {
      expectSame(await both(args));
    }
    expectSame(await both(['run', 'status', '--json'], { TEAMKIT_HOME: empty.home }));
  });

  it('with several runs: the listing, a run by id and by prefix, and each refusal', async () => {
    const [first] = runs as [string, string];
    for (const args of [
      ['run', 'status'],
      ['run', 'status', '--json'],
      ['run', 'status', first, '--json'],
      ['run', 'status', first.slice(0, 6)],
      ['run', 'status', first.slice(0, 6), '--json'],
      ['run', 'status', 'ab', '--json'],
      ['run', 'status', 'ab'],
      ['run', 'status', 'not-a-run', '--json'],
      ['run', 'status', 'fffffffe', '--json'],
      ['run', 'status', 'fffffffe'],
    ]) {
      expectSame(await both([...args, '--home', busy.home]));
    }
  });

  it('as a member: its own run, and a refusal for another', async () => {
    const [first, second] = runs as [string, string];
    const helper = memberEnvironment(busy.home, first, 'helper');
    for (const args of [
      ['run', 'status', '--json'],
      ['run', 'status'],
      ['run', 'status', first.slice(0, 8), '--json'],
      ['run', 'status', second, '--json'],
      ['run', 'status', '--json', '--home', empty.home],
    ]) {
      expectSame(await both(args, helper));
    }
  });

  it('on corrupt and half-valid state documents, listed and named', async () => {
    const corrupt = randomUUID();
    const halfValid = randomUUID();
    await mkdir(path.join(busy.home, 'runtime', corrupt), { recursive: true, mode: 0o700 });
    await writeFile(path.join(busy.home, 'runtime', corrupt, 'state.json'), '{"version":1,', {
      mode: 0o600,
    });
    await mkdir(path.join(busy.home, 'runtime', halfValid), { recursive: true, mode: 0o700 });
    await writeFile(
      path.join(busy.home, 'runtime', halfValid, 'state.json'),
      JSON.stringify({ version: 1, status: 'running', runId: halfValid }),
      { mode: 0o600 },
    );
    for (const args of [
      ['run', 'status', '--json'],
      ['run', 'status'],
      ['run', 'status', corrupt, '--json'],
      ['run', 'status', corrupt],
      ['run', 'status', halfValid, '--json'],
      ['run', 'status', halfValid],
    ]) {
      const pair = await both([...args, '--home', busy.home]);
      expectSame(pair);
      if (args.length > 3) expect(pair.fast.code, pair.fast.stdout).not.toBe(0);
    }
  });

  it('on lines the fast path leaves to commander: help, unknown options, extra arguments', async () => {
    for (const args of [
      ['run', 'status', '--help'],
      ['run', 'status', '--bogus', '--json'],
      ['run', 'status', 'a', 'b', '--json'],
      ['run', 'status', '--home'],
    ]) {
      expectSame(await both([...args, ...(args.includes('--home') ? [] : ['--home', empty.home])]));
    }
  });
});
