import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { isTeamkitError } from '@teamkit/team-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  expandAgentCommand,
  parseAgentCommand,
  resolveScriptedAgent,
  SCRIPTED_AGENT_NAME,
  SCRIPTED_AGENT_PACKAGE,
  scriptedAgentPath,
} from './agent-command.js';

const values = {
  member: 'implementer',
  role: 'implementer',
  run: 'r-1',
  team: 'coding-team',
  'prompt-file': '/h/runtime/r-1/prompts/implementer.md',
  home: '/h',
  cwd: '/w',
  model: '',
  prompt: '',
};

describe('agent command templates', () => {
  it('parses quoted words and expands placeholders inside them', () => {
    const words = parseAgentCommand(
      `opencode run --agent {member} "$(cat)" --prompt-file={prompt-file}`.replace(
        '"$(cat)"',
        "'hello {role}'",
      ),
    );
    expect(expandAgentCommand(words, values)).toEqual([
      'opencode',
      'run',
      '--agent',
      'implementer',
      'hello implementer',
      '--prompt-file=/h/runtime/r-1/prompts/implementer.md',
    ]);
    expect(expandAgentCommand(['node', '-e', '()=>{}'], values)).toEqual(['node', '-e', '()=>{}']);
  });

  it('refuses shell operators, substitutions and variables', () => {
    for (const template of [
      'agent; rm -rf x',
      'agent | tee log',
      'agent && x',
      'agent > out',
      'agent $HOME',
      'agent *',
      '',
    ]) {
      expect(() => parseAgentCommand(template), template).toThrow(/template/);
    }
  });

  it('runs teamkit-agent with this Node, from the bin entry of the harness package', () => {
    const argv = resolveScriptedAgent(['teamkit-agent', '--role', 'tester']);
    expect(argv[0]).toBe(process.execPath);
    const manifestPath = createRequire(import.meta.url).resolve(
      `${SCRIPTED_AGENT_PACKAGE}/package.json`,
    );
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      bin: Record<string, string>;
    };
    const bin = manifest.bin[SCRIPTED_AGENT_NAME];
    expect(bin).toBeDefined();
    expect(argv[1]).toBe(path.resolve(path.dirname(manifestPath), bin ?? ''));
    expect(argv.slice(2)).toEqual(['--role', 'tester']);
    expect(resolveScriptedAgent(['claude', '-p'])).toEqual(['claude', '-p']);
  });
});

describe('finding the scripted agent', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'teamkit-agent-bin-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('follows the bin field of the installed package, wherever it points', () => {
    const packageDir = path.join(root, 'app', 'node_modules', ...SCRIPTED_AGENT_PACKAGE.split('/'));
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(
      path.join(packageDir, 'package.json'),
      JSON.stringify({
        name: SCRIPTED_AGENT_PACKAGE,
        bin: { other: './x.js', [SCRIPTED_AGENT_NAME]: './bin/scripted.mjs' },
      }),
    );
    const nested = path.join(root, 'app', 'lib', 'deep');
    mkdirSync(nested, { recursive: true });
    expect(scriptedAgentPath(nested)).toBe(path.join(packageDir, 'bin', 'scripted.mjs'));
  });

  it('is AGENT_NOT_FOUND where the installed package has no such bin', () => {
    // A folder without the package would still reach the workspace's copy through NODE_PATH,
    // which pnpm sets; an installed copy without the entry is found first.
    const packageDir = path.join(root, 'old', 'node_modules', ...SCRIPTED_AGENT_PACKAGE.split('/'));
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(
      path.join(packageDir, 'package.json'),
      JSON.stringify({ name: SCRIPTED_AGENT_PACKAGE, bin: { other: './x.js' } }),
    );
    let caught: unknown;
    try {
      scriptedAgentPath(path.join(root, 'old'));
    } catch (error) {
      caught = error;
    }
    expect(isTeamkitError(caught) && caught.code).toBe('AGENT_NOT_FOUND');
  });
});
