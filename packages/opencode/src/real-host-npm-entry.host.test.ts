import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  describeResult,
  findOpencodeBinary,
  killRunningOpencode,
  markPluginDependencyInstalled,
  offlineEnv,
  PROCESS_TIMEOUT_MS,
  runOpencode,
} from './test-support/real-opencode.js';

// The plugin named by its package name in opencode.json (the form users install from
// npm), with options in the tuple form. OpenCode installs npm plugins into
// `$XDG_CACHE_HOME/opencode/packages/<name>@<version>/`; the package is not on the
// registry from here, so the test puts the built package where that install would.

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const binary = findOpencodeBinary();
if (binary.reason) console.warn(`Skipping the real OpenCode npm-entry test: ${binary.reason}`);

let root: string | undefined;
afterAll(async () => {
  killRunningOpencode();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

function seedNpmPluginInstall(cacheHome: string): void {
  const installed = join(cacheHome, 'opencode', 'packages', '@teamkit', 'opencode@latest');
  mkdirSync(join(installed, 'node_modules', '@teamkit'), { recursive: true });
  symlinkSync(packageRoot, join(installed, 'node_modules', '@teamkit', 'opencode'), 'dir');
  const dependencies = { '@teamkit/opencode': 'latest' };
  writeFileSync(join(installed, 'package.json'), JSON.stringify({ dependencies }));
  writeFileSync(
    join(installed, 'package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }),
  );
}

/** Runs `opencode agent list` in a fresh project whose opencode.json names the plugin by package name. */
async function agentListWithPlugin(name: string, options: Record<string, unknown>) {
  root ??= await mkdtemp(join(tmpdir(), 'teamkit-opencode-npm-'));
  const home = join(root, `home-${name}`);
  const project = join(root, `project-${name}`);
  const env = offlineEnv(home, { TEAMKIT_HOME: join(home, '.teamkit') });
  mkdirSync(project, { recursive: true });
  markPluginDependencyInstalled(join(home, '.config', 'opencode'));
  seedNpmPluginInstall(join(home, '.cache'));
  writeFileSync(
    join(project, 'opencode.json'),
    JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      autoupdate: false,
      share: 'disabled',
      plugin: [['@teamkit/opencode', options]],
    }),
  );
  const result = await runOpencode(binary.path as string, ['agent', 'list'], project, env);
  return { result, report: describeResult('agent list', result, join(home, '.local', 'share')) };
}

describe.skipIf(binary.path === undefined)(
  'the plugin as an npm entry in the real OpenCode host',
  () => {
    it(
      'loads by package name with tuple options and turns the built-in teams into agents',
      async () => {
        const { result, report } = await agentListWithPlugin('enabled', { defaultAgent: false });
        expect(result.code, report).toBe(0);
        expect(result.stdout, report).toContain('coding-team-lead (primary)');
        expect(result.stdout, report).toContain('coding-team-implementer (subagent)');
      },
      PROCESS_TIMEOUT_MS + 30_000,
    );

    it(
      'registers nothing when the tuple options disable it',
      async () => {
        const { result, report } = await agentListWithPlugin('disabled', { enabled: false });
        expect(result.code, report).toBe(0);
        expect(result.stdout, report).toContain('build (primary)');
        expect(result.stdout, report).not.toContain('coding-team');
      },
      PROCESS_TIMEOUT_MS + 30_000,
    );
  },
);
