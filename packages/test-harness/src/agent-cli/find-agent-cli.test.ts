import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isTeamkitError } from '@teamkit/team-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentCliName } from './agent-cli-name.js';
import { findAgentCli } from './find-agent-cli.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function emptyRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'teamkit-find-cli-'));
  roots.push(root);
  return root;
}

function writeScript(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

describe('findAgentCli', () => {
  it('refuses a name it does not know with INVALID_INPUT', () => {
    let caught: unknown;
    try {
      findAgentCli('cursor' as AgentCliName);
    } catch (error) {
      caught = error;
    }
    expect(isTeamkitError(caught) && caught.code).toBe('INVALID_INPUT');
  });

  it('answers found: false with how to install it when nothing provides the CLI', async () => {
    const root = await emptyRoot();
    const location = findAgentCli('codex', { searchFrom: [root], usePath: false, env: {} });
    expect(location).toEqual({
      found: false,
      name: 'codex',
      reason: expect.stringContaining('pnpm agents:install'),
    });
  });

  it('throws instead when TEAMKIT_TEST_REQUIRE_PROGRAMS=1, as in CI', async () => {
    const root = await emptyRoot();
    const env = { TEAMKIT_TEST_REQUIRE_PROGRAMS: '1' };
    expect(() => findAgentCli('gemini', { searchFrom: [root], usePath: false, env })).toThrow(
      /gemini is not installed.*TEAMKIT_TEST_REQUIRE_PROGRAMS=1/,
    );
  });

  it('finds an npm package in a tools/agents folder above the search start and reads its version', async () => {
    const root = await emptyRoot();
    const packageDir = join(root, 'tools', 'agents', 'node_modules', '@openai', 'codex');
    mkdirSync(join(packageDir, 'bin'), { recursive: true });
    writeFileSync(join(root, 'tools', 'agents', 'package.json'), '{"private":true}');
    writeFileSync(
      join(packageDir, 'package.json'),
      JSON.stringify({ name: '@openai/codex', version: '0.0.1', bin: { codex: 'bin/codex.js' } }),
    );
    writeScript(join(packageDir, 'bin', 'codex.js'), 'echo "codex-cli 0.0.1"');
    const nested = join(root, 'packages', 'deep');
    mkdirSync(nested, { recursive: true });
    const location = findAgentCli('codex', { searchFrom: [nested], usePath: false, env: {} });
    expect(location).toEqual({
      found: true,
      name: 'codex',
      path: join(packageDir, 'bin', 'codex.js'),
      version: 'codex-cli 0.0.1',
      source: 'package',
    });
  });

  it('prefers TEAMKIT_<NAME>_BIN and does not fall back when that program cannot start', async () => {
    const root = await emptyRoot();
    const good = join(root, 'claude-good');
    const broken = join(root, 'claude-broken');
    writeScript(good, 'echo "9.9.9 (Claude Code)"');
    writeScript(broken, 'echo boom >&2; exit 3');
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeScript(join(bin, 'claude'), 'echo "1.0.0 (Claude Code)"');
    const options = { searchFrom: [root], env: { PATH: bin } };

    expect(
      findAgentCli('claude', { ...options, env: { ...options.env, TEAMKIT_CLAUDE_BIN: good } }),
    ).toMatchObject({
      found: true,
      path: good,
      version: '9.9.9 (Claude Code)',
      source: 'env',
    });
    const failing = findAgentCli('claude', {
      ...options,
      env: { ...options.env, TEAMKIT_CLAUDE_BIN: broken },
    });
    expect(failing.found).toBe(false);
    expect(failing.found === false && failing.reason).toContain('exit 3: boom');
    // Without the override, PATH is used.
    expect(findAgentCli('claude', options)).toMatchObject({ found: true, source: 'path' });
  });
});
