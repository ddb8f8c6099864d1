import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isTeamkitError } from '@teamkit/team-core/errors';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AGENT_CLI_NAMES,
  AGENT_CLIS,
  type AgentCliMcpServer,
  claudeCodeMcpConfig,
  claudeCodeTurnArgs,
  codexSettings,
  findOnPath,
  geminiCliTurnArgs,
  isAgentCliName,
  opencodeConfig,
  opencodeTurnArgs,
  packageBinPath,
  programOverrideVariable,
  sessionIdField,
} from './index.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'teamkit-agent-clis-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the agent CLIs', () => {
  it('name each CLI once, with its program and package', () => {
    expect(Object.keys(AGENT_CLIS)).toEqual([...AGENT_CLI_NAMES]);
    for (const name of AGENT_CLI_NAMES) expect(AGENT_CLIS[name].name).toBe(name);
    expect(isAgentCliName('claude')).toBe(true);
    expect(isAgentCliName('teamkit-agent')).toBe(false);
  });

  it('Claude Code: the prompt first, --resume, and --allowedTools last; no --strict-mcp-config', () => {
    const args = claudeCodeTurnArgs(
      { prompt: '--looks-like-a-flag', sessionId: 's' },
      { model: 'm', mcpConfigFile: '/f.json', allowedTools: ['mcp__a', 'Bash(git:*)'] },
    );
    expect(args).toEqual([
      '-p',
      '--looks-like-a-flag',
      '--resume',
      's',
      '--output-format',
      'json',
      '--permission-mode',
      'acceptEdits',
      '--model',
      'm',
      '--mcp-config',
      '/f.json',
      '--allowedTools',
      'mcp__a',
      'Bash(git:*)',
    ]);
    expect(claudeCodeTurnArgs({ prompt: 'x' }, {})).not.toContain('--allowedTools');
    expect(JSON.parse(claudeCodeMcpConfig({ a: { command: 'node', args: ['s.js'] } }))).toEqual({
      mcpServers: { a: { command: 'node', args: ['s.js'], env: {} } },
    });
  });

  it('Codex: refuses an MCP server or variable name a -c key cannot carry', () => {
    const refused: Record<string, AgentCliMcpServer>[] = [
      { 'a.b': { command: 'node' } },
      { a: { command: 'node', env: { 'X=1': 'y' } } },
    ];
    for (const servers of refused) {
      let caught: unknown;
      try {
        codexSettings({ mcpServers: servers });
      } catch (error) {
        caught = error;
      }
      expect(isTeamkitError(caught) && caught.code).toBe('INVALID_INPUT');
    }
    expect(codexSettings({ model: 'gpt' }).at(-1)).toEqual(['model', '"gpt"']);
  });

  it('OpenCode and Gemini CLI: sessions continue by flag, one --allowed-tools per tool', () => {
    expect(opencodeTurnArgs({ prompt: 'p', sessionId: 'ses' }, {})).toEqual([
      'run',
      '--format',
      'json',
      '--session',
      'ses',
      '--',
      'p',
    ]);
    expect(opencodeConfig()).toEqual({
      $schema: 'https://opencode.ai/config.json',
      permission: { external_directory: 'deny' },
    });
    const gemini = geminiCliTurnArgs({ prompt: 'p' }, { allowedTools: ['a', 'b'] });
    expect(gemini.slice(-4)).toEqual(['--allowed-tools', 'a', '--allowed-tools', 'b']);
  });

  it('read session ids from JSON results and JSON lines, past warnings', () => {
    expect(sessionIdField('warning\n{"session_id":"s-2"}\n')).toBe('s-2');
    expect(sessionIdField('not json')).toBeUndefined();
    expect(AGENT_CLIS.codex.sessionIdFrom('{"type":"thread.started","thread_id":"t"}\n')).toBe('t');
    expect(AGENT_CLIS.opencode.sessionIdFrom('{"type":"text","sessionID":"ses_1"}\n')).toBe(
      'ses_1',
    );
  });
});

describe('finding programs', () => {
  it('finds executables on the absolute folders of PATH, and names the override variable', () => {
    const bin = path.join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'tool'), '#!/bin/sh\n');
    chmodSync(path.join(bin, 'tool'), 0o755);
    writeFileSync(path.join(bin, 'plain'), '');
    expect(findOnPath('tool', { PATH: `relative:${bin}` })).toBe(path.join(bin, 'tool'));
    expect(findOnPath('plain', { PATH: bin })).toBeUndefined();
    expect(programOverrideVariable('teamkit-agent')).toBe('TEAMKIT_TEAMKIT_AGENT_BIN');
  });

  it("reads a package's bin field from the folder it is resolved from", () => {
    const app = path.join(root, 'app');
    const scoped = path.join(app, 'node_modules', '@scope', 'many');
    const single = path.join(app, 'node_modules', 'single');
    for (const dir of [scoped, single]) mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(scoped, 'package.json'),
      JSON.stringify({ name: '@scope/many', bin: { one: './bin/one.js', two: 'two.js' } }),
    );
    writeFileSync(
      path.join(single, 'package.json'),
      JSON.stringify({ name: 'single', bin: './cli.js' }),
    );
    const deep = path.join(app, 'src', 'deep');
    mkdirSync(deep, { recursive: true });
    expect(packageBinPath('@scope/many', 'one', deep)).toBe(path.join(scoped, 'bin', 'one.js'));
    expect(packageBinPath('@scope/many', 'three', deep)).toBeUndefined();
    expect(packageBinPath('single', 'single', deep)).toBe(path.join(single, 'cli.js'));
    expect(packageBinPath('missing', 'missing', deep)).toBeUndefined();
  });
});
