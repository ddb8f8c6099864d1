import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isTeamkitError } from '@teamkit/team-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentCliName } from './agent-cli-name.js';
import { createAgentCliEnvironment } from './create-agent-cli-environment.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function emptyRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'teamkit-cli-env-'));
  roots.push(root);
  return root;
}

const server = { url: 'http://127.0.0.1:4321/v1', origin: 'http://127.0.0.1:4321' };
const echo = {
  command: '/usr/bin/node',
  args: ['echo.mjs', 'a "quoted" arg'],
  env: { TEAMKIT_MEMBER: 'alice' },
};

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

describe('createAgentCliEnvironment', () => {
  it('refuses an unknown CLI with INVALID_INPUT and writes nothing', async () => {
    const root = await emptyRoot();
    let caught: unknown;
    try {
      createAgentCliEnvironment('aider' as AgentCliName, { root, server });
    } catch (error) {
      caught = error;
    }
    expect(isTeamkitError(caught) && caught.code).toBe('INVALID_INPUT');
    expect(filesUnder(root)).toEqual([]);
  });

  it('gives Claude Code the mock origin, a private config folder, no retries and a per-process MCP config', async () => {
    const root = await emptyRoot();
    const environment = createAgentCliEnvironment('claude', {
      root,
      server,
      model: 'claude-test',
      mcpServers: { echo },
      env: { TEAMKIT_RUN: 'r1' },
    });
    expect(environment.env).toMatchObject({
      HOME: join(root, 'home'),
      CLAUDE_CONFIG_DIR: join(root, 'claude-config'),
      ANTHROPIC_BASE_URL: server.origin,
      CLAUDE_CODE_MAX_RETRIES: '0',
      TEAMKIT_RUN: 'r1',
    });
    expect(environment.env.ANTHROPIC_AUTH_TOKEN).toBeUndefined();
    const mcpConfig = join(root, 'claude-mcp.json');
    expect(environment.firstTurnArgs('hi')).toEqual([
      '-p',
      'hi',
      '--output-format',
      'json',
      '--permission-mode',
      'acceptEdits',
      '--model',
      'claude-test',
      '--mcp-config',
      mcpConfig,
      '--allowedTools',
      'mcp__echo',
    ]);
    expect(environment.resumeTurnArgs('s-1', 'again').slice(0, 4)).toEqual([
      '-p',
      'again',
      '--resume',
      's-1',
    ]);
    expect(JSON.parse(readFileSync(mcpConfig, 'utf8'))).toEqual({ mcpServers: { echo } });
    expect(environment.sessionIdFrom('{"type":"result","session_id":"abc"}\n')).toBe('abc');
    expect(environment.sessionIdFrom('not json')).toBeUndefined();
  });

  it('writes Codex a config.toml with the Responses provider, the sandbox and approved MCP tools', async () => {
    const root = await emptyRoot();
    const environment = createAgentCliEnvironment('codex', {
      root,
      server,
      retries: 2,
      writableRoots: ['/repo/.git'],
      mcpServers: { echo: { ...echo, inheritEnv: ['TEAMKIT_RUN'] } },
    });
    const config = readFileSync(join(root, 'codex-home', 'config.toml'), 'utf8');
    expect(config).toContain('model = "mock-model"');
    expect(config).toContain(`base_url = "${server.url}"`);
    expect(config).toContain('wire_api = "responses"');
    expect(config).toContain('request_max_retries = 2');
    // The rest is what the preset adds, as -c overrides on every turn.
    expect(config).not.toContain('sandbox');
    expect(config).not.toContain('mcp_servers');
    expect(environment.env.CODEX_HOME).toBe(join(root, 'codex-home'));
    expect(environment.env.TEAMKIT_MOCK_MODEL_KEY).toBe('mock-key');
    const first = environment.firstTurnArgs('-x');
    expect(first.slice(0, 3)).toEqual(['exec', '--json', '--skip-git-repo-check']);
    expect(first.slice(-2)).toEqual(['--', '-x']);
    const overrides = first.flatMap((word, index) => (first[index - 1] === '-c' ? [word] : []));
    expect(overrides).toEqual([
      'approval_policy="never"',
      'sandbox_mode="workspace-write"',
      'sandbox_workspace_write.writable_roots=["/repo/.git"]',
      'sandbox_workspace_write.exclude_slash_tmp=true',
      'sandbox_workspace_write.exclude_tmpdir_env_var=true',
      'sandbox_workspace_write.network_access=false',
      'mcp_servers.echo.command="/usr/bin/node"',
      'mcp_servers.echo.args=["echo.mjs","a \\"quoted\\" arg"]',
      'mcp_servers.echo.env.TEAMKIT_MEMBER="alice"',
      'mcp_servers.echo.env_vars=["TEAMKIT_RUN"]',
      'mcp_servers.echo.default_tools_approval_mode="approve"',
      'mcp_servers.echo.required=true',
      'mcp_servers.echo.startup_timeout_sec=60',
    ]);
    const resumed = environment.resumeTurnArgs('t-1', 'go');
    expect(resumed.slice(0, 4)).toEqual(['exec', 'resume', '--json', '--skip-git-repo-check']);
    expect(resumed.slice(-3)).toEqual(['--', 't-1', 'go']);
    expect(resumed.filter((word) => word === '-c')).toHaveLength(overrides.length);
    const stdout = '{"type":"thread.started","thread_id":"t-9"}\n{"type":"turn.started"}\n';
    expect(environment.sessionIdFrom(stdout)).toBe('t-9');
  });

  it('writes OpenCode a global opencode.json in a private XDG config home and its additions in OPENCODE_CONFIG, never in the project', async () => {
    const root = await emptyRoot();
    const environment = createAgentCliEnvironment('opencode', {
      root,
      server,
      mcpServers: { echo },
    });
    const configDir = join(root, 'home', '.config', 'opencode');
    expect(environment.env.XDG_CONFIG_HOME).toBe(join(root, 'home', '.config'));
    const config = JSON.parse(readFileSync(join(configDir, 'opencode.json'), 'utf8'));
    expect(config.provider.mock.options.baseURL).toBe(server.url);
    expect(config.permission).toBeUndefined();
    const addedFile = environment.env.OPENCODE_CONFIG ?? '';
    expect(addedFile.startsWith(root)).toBe(true);
    const added = JSON.parse(readFileSync(addedFile, 'utf8'));
    expect(added.permission).toEqual({ external_directory: 'deny' });
    expect(added.provider).toBeUndefined();
    expect(added.mcp.echo).toEqual({
      type: 'local',
      command: ['/usr/bin/node', 'echo.mjs', 'a "quoted" arg'],
      environment: { TEAMKIT_MEMBER: 'alice' },
      enabled: true,
    });
    expect(filesUnder(configDir)).toEqual(['opencode.json', 'package-lock.json', 'package.json']);
    expect(environment.firstTurnArgs('hi')).toEqual([
      'run',
      '--format',
      'json',
      '--model',
      'mock/mock-model',
      '--',
      'hi',
    ]);
    expect(environment.sessionIdFrom('{"type":"step_start","sessionID":"ses_1"}\n')).toBe('ses_1');
  });

  it('selects Gemini CLI API-key auth in settings.json and reads the base URL from the environment', async () => {
    const root = await emptyRoot();
    const environment = createAgentCliEnvironment('gemini', { root, server, mcpServers: { echo } });
    const settings = JSON.parse(
      readFileSync(join(root, 'home', '.gemini', 'settings.json'), 'utf8'),
    );
    expect(settings.security.auth.selectedType).toBe('gemini-api-key');
    expect(settings.general.maxAttempts).toBe(1);
    expect(settings.mcpServers.echo).toMatchObject({ command: '/usr/bin/node', trust: true });
    expect(environment.env).toMatchObject({
      GOOGLE_GEMINI_BASE_URL: server.origin,
      GEMINI_API_KEY: 'mock-key',
    });
    expect(environment.model).toBe('gemini-2.5-flash');
    expect(environment.resumeTurnArgs('g-1', 'hi').slice(0, 4)).toEqual([
      '--prompt',
      'hi',
      '--resume',
      'g-1',
    ]);
    expect(environment.firstTurnArgs('hi')).toContain('auto_edit');
  });

  it('writes only under its root', async () => {
    const root = await emptyRoot();
    for (const cli of ['claude', 'codex', 'opencode', 'gemini'] as const) {
      const environment = createAgentCliEnvironment(cli, {
        root: join(root, cli),
        server,
        mcpServers: { echo },
      });
      for (const file of environment.files) expect(file.startsWith(join(root, cli))).toBe(true);
      expect(environment.env.PATH).toBe(process.env.PATH);
      expect(environment.env.HOME?.startsWith(join(root, cli))).toBe(true);
    }
  });
});
