import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AGENT_PRESET_NAMES,
  getAgentPreset,
  locatePresetProgram,
  type PresetMemberInput,
  presetsOnPath,
} from './index.js';

const input: PresetMemberInput = {
  program: '/opt/bin/agent',
  folder: '/home/u/.teamkit/runtime/r/agents/alice',
  cwd: '/home/u/.teamkit/worktrees/r/alice',
  model: 'some-model',
  mcpCommand: ['/usr/bin/node', '/lib/mcp/bin.js', '--tools', 'member'],
  writableRoots: ['/repo/.git'],
};

const flagValue = (argv: string[], flag: string) => argv[argv.indexOf(flag) + 1];

describe('agent presets', () => {
  it('Claude Code: -p with the prompt first, acceptEdits plus git and the MCP tools, a per-member --mcp-config', () => {
    const agent = getAgentPreset('claude').prepare(input);
    const first = agent.turnArgv({ prompt: 'Do it' });
    expect(first.slice(0, 3)).toEqual(['/opt/bin/agent', '-p', 'Do it']);
    expect(flagValue(first, '--permission-mode')).toBe('acceptEdits');
    expect(flagValue(first, '--model')).toBe('some-model');
    expect(flagValue(first, '--output-format')).toBe('json');
    expect(first.slice(first.indexOf('--allowedTools') + 1)).toEqual([
      'mcp__teamkit',
      'Bash(git:*)',
      'Bash(team:*)',
    ]);
    // Added to the user's own MCP servers, not replacing them.
    expect(first).not.toContain('--strict-mcp-config');
    const file = agent.files[0];
    expect(flagValue(first, '--mcp-config')).toBe(file?.path);
    expect(file?.path.startsWith(input.folder)).toBe(true);
    expect(JSON.parse(file?.text ?? '')).toEqual({
      mcpServers: {
        teamkit: {
          command: '/usr/bin/node',
          args: ['/lib/mcp/bin.js', '--tools', 'member', '--host', 'claude'],
          env: {},
        },
      },
    });
    const next = agent.turnArgv({ prompt: 'More', sessionId: 'abc' });
    expect(next.slice(0, 5)).toEqual(['/opt/bin/agent', '-p', 'More', '--resume', 'abc']);
    expect(agent.sessionIdFrom('{"type":"result","session_id":"s-1"}\n')).toBe('s-1');
    expect(agent.sessionIdFrom('warning\n{"session_id":"s-2"}\n')).toBe('s-2');
    expect(agent.sessionIdFrom('not json')).toBeUndefined();
    expect(agent.env).toEqual({});
  });

  it('Codex: every addition is a -c override, repeated on resume; the git folder is writable', () => {
    const agent = getAgentPreset('codex').prepare(input);
    const first = agent.turnArgv({ prompt: '--not-a-flag' });
    expect(first.slice(0, 2)).toEqual(['/opt/bin/agent', 'exec']);
    expect(first.slice(-2)).toEqual(['--', '--not-a-flag']);
    const overrides = first.flatMap((word, index) => (first[index - 1] === '-c' ? [word] : []));
    expect(overrides).toEqual([
      'approval_policy="never"',
      'sandbox_mode="workspace-write"',
      'sandbox_workspace_write.writable_roots=["/repo/.git"]',
      'sandbox_workspace_write.exclude_slash_tmp=true',
      'sandbox_workspace_write.exclude_tmpdir_env_var=true',
      'sandbox_workspace_write.network_access=false',
      'mcp_servers.teamkit.command="/usr/bin/node"',
      'mcp_servers.teamkit.args=["/lib/mcp/bin.js","--tools","member","--host","codex"]',
      'mcp_servers.teamkit.env_vars=["TEAMKIT_HOME","TEAMKIT_RUN","TEAMKIT_MEMBER","TEAMKIT_TOKEN","TEAMKIT_STORE","TEAMKIT_STORE_CREDS","TEAMKIT_STORE_REPLICAS","TEAMKIT_STORE_TLS_CA","TEAMKIT_STORE_TLS_CERT","TEAMKIT_STORE_TLS_KEY"]',
      'mcp_servers.teamkit.default_tools_approval_mode="approve"',
      'mcp_servers.teamkit.required=true',
      'mcp_servers.teamkit.startup_timeout_sec=60',
      'model="some-model"',
    ]);
    const next = agent.turnArgv({ prompt: 'More', sessionId: 'th-1' });
    expect(next.slice(0, 3)).toEqual(['/opt/bin/agent', 'exec', 'resume']);
    expect(next.slice(-3)).toEqual(['--', 'th-1', 'More']);
    expect(next.filter((word) => word === '-c')).toHaveLength(overrides.length);
    expect(agent.files).toEqual([]);
    expect(
      agent.sessionIdFrom(
        '{"type":"thread.started","thread_id":"t-9"}\n{"type":"turn.completed"}\n',
      ),
    ).toBe('t-9');
  });

  it('OpenCode: a per-member OPENCODE_CONFIG that denies outside paths and adds the MCP server', () => {
    const agent = getAgentPreset('opencode').prepare(input);
    const file = agent.files[0];
    expect(agent.env).toEqual({ OPENCODE_CONFIG: file?.path });
    const config = JSON.parse(file?.text ?? '') as Record<string, unknown>;
    expect(config.permission).toEqual({ external_directory: 'deny' });
    expect(config.mcp).toEqual({
      teamkit: {
        type: 'local',
        command: ['/usr/bin/node', '/lib/mcp/bin.js', '--tools', 'member', '--host', 'opencode'],
        environment: {},
        enabled: true,
      },
    });
    expect(config.provider).toBeUndefined();
    expect(agent.turnArgv({ prompt: 'Go' })).toEqual([
      '/opt/bin/agent',
      'run',
      '--format',
      'json',
      '--model',
      'some-model',
      '--',
      'Go',
    ]);
    expect(agent.turnArgv({ prompt: 'Go', sessionId: 'ses_1' })).toContain('--session');
    expect(agent.sessionIdFrom('{"type":"step_start","sessionID":"ses_1"}\n')).toBe('ses_1');
  });

  it('Gemini CLI: auto_edit, its shell for git and team only, no settings file written', () => {
    const preset = getAgentPreset('gemini');
    expect(preset.mcpHost).toBeUndefined();
    const agent = preset.prepare(input);
    expect(agent.files).toEqual([]);
    expect(agent.env).toEqual({});
    const first = agent.turnArgv({ prompt: 'Go' });
    expect(first.slice(0, 3)).toEqual(['/opt/bin/agent', '--prompt', 'Go']);
    expect(flagValue(first, '--approval-mode')).toBe('auto_edit');
    expect(first.slice(first.indexOf('--allowed-tools'))).toEqual([
      '--allowed-tools',
      'run_shell_command(git)',
      '--allowed-tools',
      'run_shell_command(team)',
    ]);
    expect(first).toContain('--skip-trust');
    expect(agent.turnArgv({ prompt: 'Go', sessionId: 'g-1' }).slice(3, 5)).toEqual([
      '--resume',
      'g-1',
    ]);
  });

  it('teamkit-agent is long-lived and needs no MCP host; unknown names are refused with the list', () => {
    const preset = getAgentPreset('teamkit-agent');
    expect(preset.mode).toBe('long-lived');
    expect(preset.mcpHost).toBeUndefined();
    for (const name of AGENT_PRESET_NAMES.filter((n) => n !== 'teamkit-agent'))
      expect(getAgentPreset(name).mode).toBe('turns');
    expect(() => getAgentPreset('claud')).toThrow(/claude, codex, opencode, gemini, teamkit-agent/);
  });
});

describe('finding agent CLIs', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamkit-presets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds programs on PATH, honours TEAMKIT_<NAME>_BIN, and skips what is not executable', () => {
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    for (const name of ['codex', 'gemini']) {
      writeFileSync(path.join(bin, name), '#!/bin/sh\n');
      chmodSync(path.join(bin, name), name === 'codex' ? 0o755 : 0o644);
    }
    mkdirSync(path.join(bin, 'claude'));
    const env = { PATH: `relative:${bin}` };
    expect(presetsOnPath(env).map((preset) => preset.name)).toEqual(['codex']);
    const custom = path.join(dir, 'my-claude');
    writeFileSync(custom, '#!/bin/sh\n');
    chmodSync(custom, 0o755);
    expect(
      locatePresetProgram(getAgentPreset('claude'), { ...env, TEAMKIT_CLAUDE_BIN: custom }),
    ).toBe(custom);
    expect(
      locatePresetProgram(getAgentPreset('codex'), {
        ...env,
        TEAMKIT_CODEX_BIN: path.join(dir, 'none'),
      }),
    ).toBeUndefined();
  });
});
