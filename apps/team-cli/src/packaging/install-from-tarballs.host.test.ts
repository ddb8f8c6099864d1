import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAgentCliEnvironment,
  describeAgentCliRun,
  findAgentCli,
  killRunningAgentClis,
  runAgentCli,
} from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeCommand,
  PUBLISHED_PACKAGES,
  packAll,
  REPO_ROOT,
  run,
  type Tarball,
} from './test-support/tarballs.js';

// The install path a user takes without the workspace: pack every published package,
// install the tarballs into an empty folder with plain npm (dependencies from the
// registry), then use the bins, the library and the OpenCode plugin from that folder.

const opencode = findAgentCli('opencode');
if (!opencode.found) console.warn(`Skipping the OpenCode part: ${opencode.reason}`);

const INSTALL_TIMEOUT_MS = 600_000;
let root: string;
let app: string;
let tarballs: Tarball[];

beforeAll(async () => {
  for (const folder of PUBLISHED_PACKAGES) {
    if (!existsSync(join(REPO_ROOT, folder, 'dist'))) {
      throw new Error(`${folder}/dist is missing: run pnpm build first (pnpm test:hosts does)`);
    }
  }
  root = await mkdtemp(join(tmpdir(), 'teamkit-install-'));
  const packed = join(root, 'tarballs');
  app = join(root, 'app');
  mkdirSync(packed);
  mkdirSync(app);
  tarballs = packAll(packed);
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'app', private: true })}\n`);
  const started = Date.now();
  const install = run(
    'npm',
    ['install', '--no-audit', '--no-fund', ...tarballs.map((tarball) => tarball.file)],
    { cwd: app, timeoutMs: INSTALL_TIMEOUT_MS },
  );
  if (install.status !== 0) throw new Error(describeCommand('npm install', install));
  // Figures for the reader, never asserted.
  console.info(
    `packed ${tarballs.map((t) => `${t.folder} ${(t.bytes / 1024).toFixed(0)} KiB`).join(', ')}; npm install took ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}, INSTALL_TIMEOUT_MS + 300_000);

afterAll(async () => {
  killRunningAgentClis();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

function manifestOf(tarball: Tarball): Record<string, unknown> {
  const text = run('tar', ['-xzOf', tarball.file, 'package/package.json'], { cwd: root });
  return JSON.parse(text.stdout) as Record<string, unknown>;
}

describe('the packed packages installed with plain npm', () => {
  it('ship built code only, with registry versions and no source export condition', () => {
    for (const tarball of tarballs) {
      const files = run('tar', ['-tzf', tarball.file], { cwd: root }).stdout.split('\n');
      expect(files, tarball.folder).toContain('package/dist/index.js');
      expect(
        files.filter((file) => /^package\/src\/|\.test\.|__fixtures__|test-support/.test(file)),
        tarball.folder,
      ).toEqual([]);
      const manifest = JSON.stringify(manifestOf(tarball));
      expect(manifest, tarball.folder).not.toContain('workspace:');
      expect(manifest, tarball.folder).not.toContain('teamkit-source');
    }
  });

  it('runs `team --version` through npx', () => {
    const result = run('npx', ['--no-install', 'team', '--version'], { cwd: app });
    expect(result.status, describeCommand('npx team --version', result)).toBe(0);
    const { version } = JSON.parse(
      readFileSync(join(REPO_ROOT, 'apps/team-cli/package.json'), 'utf8'),
    ) as { version: string };
    expect(result.stdout.trim()).toBe(version);
  });

  it('imports @teamkit/team-core and every subpath from the built files', () => {
    const script = `
      const names = ['', '/errors', '/schema', '/storage', '/state', '/registry', '/processes', '/tmux', '/worktree', '/home', '/tools'];
      for (const name of names) {
        const url = import.meta.resolve('@teamkit/team-core' + name);
        if (!url.includes('/node_modules/@teamkit/team-core/dist/')) throw new Error(url);
        await import(url);
      }
      const core = await import('@teamkit/team-core');
      const storage = await import('@teamkit/team-core/storage');
      console.log(typeof storage.createFileStore, typeof core.TEAMKIT_ERROR_CODES);`;
    const result = run('node', ['--input-type=module', '-e', script], { cwd: app });
    expect(result.status, describeCommand('node -e import', result)).toBe(0);
    expect(result.stdout.trim()).toBe('function object');
  });

  it('starts the teamkit-mcp bin, which serves until its client closes stdin', async () => {
    const child = spawn(join(app, 'node_modules', '.bin', 'teamkit-mcp'), [], {
      cwd: app,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    const serving = new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (stderr.includes('serving')) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await Promise.race([serving, exited]);
    expect(stderr).toContain('teamkit-mcp info: serving');
    child.stdin.end();
    await expect(exited).resolves.toBe(0);
  }, 120_000);
  it('serves the team ui page from the installed @teamkit/ui', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TEAMKIT_HOME: join(root, 'ui-home'),
      CLAUDE_CONFIG_DIR: join(root, 'ui-claude'),
    };
    delete env.TEAMKIT_MEMBER;
    delete env.TEAMKIT_RUN;
    const child = spawn(join(app, 'node_modules', '.bin', 'team'), ['ui', '--json'], {
      cwd: app,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
        });
        child.once('exit', (code) => reject(new Error(`team ui exited ${code}`)));
      });
      const { port } = JSON.parse(line) as { port: number };
      const script = await fetch(`http://127.0.0.1:${port}/assets/app.js`);
      expect(script.status).toBe(200);
      expect((await script.text()).length).toBeGreaterThan(1000);
    } finally {
      child.kill('SIGINT');
    }
    await expect(exited).resolves.toBe(0);
  }, 120_000);
});

describe.skipIf(!opencode.found)('the real OpenCode host and the installed plugin', () => {
  const binary = opencode.found ? opencode.path : '';

  /** `opencode agent list` in `project`, with a private home and Teamkit home. */
  async function agentList(project: string, name: string) {
    const environment = createAgentCliEnvironment('opencode', {
      root: join(root, `opencode-${name}`),
      server: { url: 'http://127.0.0.1:9/v1', origin: 'http://127.0.0.1:9' },
      env: { TEAMKIT_HOME: join(root, `teamkit-home-${name}`) },
    });
    // OpenCode installs @opencode-ai/plugin into each config folder first; this says it is there.
    const configDir = join(project, '.opencode');
    const dependencies = { '@opencode-ai/plugin': '1.18.33' };
    mkdirSync(join(configDir, 'node_modules'), { recursive: true });
    writeFileSync(join(configDir, 'package.json'), JSON.stringify({ dependencies }));
    writeFileSync(
      join(configDir, 'package-lock.json'),
      JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }),
    );
    const result = await runAgentCli(binary, ['agent', 'list'], {
      cwd: project,
      env: environment.env,
    });
    return { result, report: describeAgentCliRun(`opencode agent list (${name})`, result) };
  }

  function writeLocalPlugin(project: string, source: string): void {
    mkdirSync(join(project, '.opencode', 'plugin'), { recursive: true });
    writeFileSync(join(project, '.opencode', 'plugin', 'teamkit.js'), source);
  }

  /** The guarded local plugin file of docs/adapters/opencode.md, as the page shows it. */
  function documentedGuardedFile(): string {
    const page = readFileSync(join(REPO_ROOT, 'docs/adapters/opencode.md'), 'utf8');
    const blocks = [...page.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    const guarded = blocks.find((block) => block.includes('catch (error)'));
    if (guarded === undefined)
      throw new Error('docs/adapters/opencode.md has no guarded plugin file');
    return guarded;
  }

  it('loads the plugin installed in the folder and turns the built-in teams into agents', async () => {
    writeLocalPlugin(app, documentedGuardedFile());
    const { result, report } = await agentList(app, 'installed');
    expect(result.code, report).toBe(0);
    expect(result.stdout, report).toContain('coding-team-lead (primary)');
    expect(result.stdout, report).toContain('coding-team-implementer (subagent)');
    expect(result.stderr, report).not.toContain('teamkit:');
  }, 300_000);

  it('says in one line that the package is not installed, with the documented guarded file', async () => {
    const bare = join(root, 'bare-project');
    writeLocalPlugin(bare, documentedGuardedFile());
    const { result, report } = await agentList(bare, 'missing');
    expect(result.code, report).toBe(0);
    expect(result.stdout, report).toContain('build (primary)');
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('teamkit:'));
    expect(lines, report).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^teamkit: could not load @teamkit\/opencode \(.*\)\. Run npm install @teamkit\/opencode in this project, then restart OpenCode\.$/,
    );
  }, 300_000);

  it('says in one line that its code could not load when a dependency is missing', async () => {
    const project = join(root, 'broken-project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"name":"broken","private":true}\n');
    // The installed folder with @teamkit/team-core taken away: a broken install.
    renameSync(join(app, 'node_modules'), join(project, 'node_modules'));
    const core = join(project, 'node_modules', '@teamkit', 'team-core');
    renameSync(core, `${core}.away`);
    try {
      writeLocalPlugin(project, "export { default } from '@teamkit/opencode';\n");
      const { result, report } = await agentList(project, 'broken');
      expect(result.code, report).toBe(0);
      expect(result.stdout, report).not.toContain('coding-team');
      const lines = result.stderr.split('\n').filter((line) => line.startsWith('teamkit:'));
      expect(lines, report).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^teamkit: the OpenCode plugin @teamkit\/opencode could not load its code: .*@teamkit\/team-core.*\. Reinstall it .*restart OpenCode$/,
      );
    } finally {
      renameSync(`${core}.away`, core);
      renameSync(join(project, 'node_modules'), join(app, 'node_modules'));
    }
  }, 300_000);
});
