import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractSnippets, scriptOf } from './test-support/doc-snippets.js';
import { REPO_ROOT, run } from './test-support/tarballs.js';

// docs/getting-started.md as a reader follows it: a fresh clone of this repository (its
// committed HEAD), a temporary HOME, and every sh/ts block run in order in one shell.
// It installs from the npm registry, so it lives in the hosts suite.

const TIMEOUT_MS = 1_500_000;
let root: string | undefined;

afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('bash', ['-c', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, TIMEOUT_MS - 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('docs/getting-started.md', () => {
  it(
    'runs from a clone to a completed, merged run and the core read from a script',
    async () => {
      const page = readFileSync(join(REPO_ROOT, 'docs/getting-started.md'), 'utf8');
      const snippets = extractSnippets(page);
      expect(snippets.length).toBeGreaterThan(5);
      root = await mkdtemp(join(tmpdir(), 'teamkit-getting-started-'));
      const home = join(root, 'home');
      const clone = join(root, 'teamkit');
      mkdirSync(home);
      const cloned = run('git', ['clone', '--quiet', REPO_ROOT, clone], { cwd: root });
      expect(cloned.status, cloned.stderr).toBe(0);
      const script = scriptOf(snippets);
      writeFileSync(join(root, 'getting-started.sh'), script);
      const realHome = homedir();
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: home,
        LANG: 'C.UTF-8',
        // The reader's own git identity, and the package caches of this machine's user so
        // the clone's install reuses what is already downloaded.
        GIT_AUTHOR_NAME: 'Reader',
        GIT_AUTHOR_EMAIL: 'reader@example.invalid',
        GIT_COMMITTER_NAME: 'Reader',
        GIT_COMMITTER_EMAIL: 'reader@example.invalid',
        npm_config_cache: process.env.npm_config_cache ?? join(realHome, '.npm'),
        XDG_DATA_HOME: process.env.XDG_DATA_HOME ?? join(realHome, '.local', 'share'),
        XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(realHome, '.cache'),
        npm_config_update_notifier: 'false',
        ...(process.env.CI === undefined ? {} : { CI: process.env.CI }),
      };
      const result = await runScript(script, clone, env);
      const report = `getting-started snippets exited with ${result.code}; output tail:\n${result.output.slice(-6000)}`;
      expect(result.code, report).toBe(0);
      // What the reader is told they will see.
      expect(result.output, report).toMatch(/Teamkit demo done/);
      expect(result.output, report).toMatch(/completed/);
      expect(result.output, report).toMatch(/Merge task \d+/);
      expect(result.output, report).toMatch(/task 1: .+ \(approved\)/);
    },
    TIMEOUT_MS,
  );
});
