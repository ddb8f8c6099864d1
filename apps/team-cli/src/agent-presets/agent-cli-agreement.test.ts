import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AGENT_CLI_NAMES,
  AGENT_CLIS,
  claudeCodeTurnArgs,
  codexTurnArgs,
  geminiCliTurnArgs,
  opencodeTurnArgs,
} from '@teamkit/agent-clis';
import { AGENT_CLI_PACKAGES, createAgentCliEnvironment } from '@teamkit/test-harness';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAUDE_ALLOWED_TOOLS, GEMINI_ALLOWED_TOOLS, getAgentPreset } from './index.js';

// The presets (what a member runs) and the harness's environments (what the host tests
// run) take every flag from the same functions of @teamkit/agent-clis; these tests fail
// when either side builds a turn of its own again.

const root = mkdtempSync(path.join(os.tmpdir(), 'teamkit-agent-cli-agreement-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const member = {
  program: '/opt/bin/agent',
  folder: '/home/u/.teamkit/runtime/r/agents/alice',
  cwd: '/home/u/.teamkit/worktrees/r/alice',
  model: 'some-model',
  mcpCommand: ['/usr/bin/node', '/lib/mcp/bin.js', '--tools', 'member'],
  writableRoots: ['/repo/.git'],
};
const server = { url: 'http://127.0.0.1:4321/v1', origin: 'http://127.0.0.1:4321' };
const echo = { command: '/usr/bin/node', args: ['echo.mjs'] };
const turns = [{ prompt: 'Go' }, { prompt: 'More', sessionId: 's-1' }];

function environment(cli: (typeof AGENT_CLI_NAMES)[number]) {
  return createAgentCliEnvironment(cli, {
    root: path.join(root, cli),
    server,
    model: 'some-model',
    writableRoots: ['/repo/.git'],
    mcpServers: { echo },
  });
}

const harnessTurn = (env: ReturnType<typeof environment>, turn: (typeof turns)[number]) =>
  turn.sessionId === undefined
    ? env.firstTurnArgs(turn.prompt)
    : env.resumeTurnArgs(turn.sessionId, turn.prompt);

describe('presets and harness environments agree on each agent CLI', () => {
  it('know the same CLIs, programs and packages', () => {
    for (const name of AGENT_CLI_NAMES) {
      const preset = getAgentPreset(name);
      expect(preset.program).toBe(AGENT_CLIS[name].program);
      expect(preset.install).toEqual(AGENT_CLIS[name].install);
      expect(AGENT_CLI_PACKAGES[name]).toEqual({
        packageName: AGENT_CLIS[name].install.packageName,
        bin: AGENT_CLIS[name].program,
        checkedVersion: AGENT_CLIS[name].install.checkedVersion,
      });
    }
  });

  it('Claude Code: both sides are claudeCodeTurnArgs, and neither isolates with --strict-mcp-config', () => {
    const agent = getAgentPreset('claude').prepare(member);
    const env = environment('claude');
    const mcpConfigFile = agent.files[0]?.path ?? '';
    for (const turn of turns) {
      const presetArgv = agent.turnArgv(turn);
      const harnessArgv = harnessTurn(env, turn);
      expect(presetArgv).toEqual([
        member.program,
        ...claudeCodeTurnArgs(turn, {
          model: 'some-model',
          mcpConfigFile,
          allowedTools: CLAUDE_ALLOWED_TOOLS,
        }),
      ]);
      expect(harnessArgv).toEqual(
        claudeCodeTurnArgs(turn, {
          model: 'some-model',
          mcpConfigFile: path.join(root, 'claude', 'claude-mcp.json'),
          allowedTools: ['mcp__echo'],
        }),
      );
      expect(presetArgv).not.toContain('--strict-mcp-config');
      expect(harnessArgv).not.toContain('--strict-mcp-config');
    }
    expect(agent.sessionIdFrom('{"session_id":"x"}')).toBe(env.sessionIdFrom('{"session_id":"x"}'));
  });

  it('Codex: both sides are codexTurnArgs, with the same -c settings but the servers', () => {
    const agent = getAgentPreset('codex').prepare(member);
    const env = environment('codex');
    const settingKeys = (argv: string[]) =>
      argv
        .flatMap((word, index) => (argv[index - 1] === '-c' ? [word.split('=')[0] ?? ''] : []))
        .map((key) => key.replace(/^mcp_servers\.[^.]+\./, 'mcp_servers.<name>.'))
        .filter((key) => key !== 'model');
    for (const turn of turns) {
      const presetArgv = agent.turnArgv(turn);
      const harnessArgv = harnessTurn(env, turn);
      expect(harnessArgv).toEqual(
        codexTurnArgs(turn, { writableRoots: ['/repo/.git'], mcpServers: { echo } }),
      );
      expect(presetArgv.slice(1, 3)).toEqual(harnessArgv.slice(0, 2));
      // The harness puts its model in the config.toml that plays the user's.
      expect(settingKeys(presetArgv)).toEqual(settingKeys(harnessArgv));
      expect(presetArgv.slice(-2)).toEqual(harnessArgv.slice(-2));
    }
  });

  it('OpenCode: both sides are opencodeTurnArgs and write the same additions', () => {
    const agent = getAgentPreset('opencode').prepare(member);
    const env = environment('opencode');
    for (const turn of turns) {
      expect(agent.turnArgv(turn)).toEqual([
        member.program,
        ...opencodeTurnArgs(turn, { model: 'some-model' }),
      ]);
      expect(harnessTurn(env, turn)).toEqual(opencodeTurnArgs(turn, { model: 'mock/some-model' }));
    }
    const presetAdded = JSON.parse(agent.files[0]?.text ?? '') as Record<string, unknown>;
    const harnessAdded = JSON.parse(readFileSync(env.env.OPENCODE_CONFIG ?? '', 'utf8')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(presetAdded)).toEqual(Object.keys(harnessAdded));
    expect(presetAdded.permission).toEqual(harnessAdded.permission);
    expect(Object.keys(agent.env)).toEqual(['OPENCODE_CONFIG']);
  });

  it('Gemini CLI: both sides are geminiCliTurnArgs; only the preset offers its shell', () => {
    const agent = getAgentPreset('gemini').prepare(member);
    const env = environment('gemini');
    for (const turn of turns) {
      expect(agent.turnArgv(turn)).toEqual([
        member.program,
        ...geminiCliTurnArgs(turn, { model: 'some-model', allowedTools: GEMINI_ALLOWED_TOOLS }),
      ]);
      expect(harnessTurn(env, turn)).toEqual(geminiCliTurnArgs(turn, { model: 'some-model' }));
    }
  });
});
