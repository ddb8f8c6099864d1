import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { issueMemberCredential } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, createTempHome, runCli } from '../../test-support/run-cli.js';

let home: string;
let cleanup: () => Promise<void>;
let runId: string;
let token: string;
const team = (args: string[], env: Record<string, string> = {}, cwd?: string) =>
  runCli([...args, '--home', home], env, cwd === undefined ? {} : { cwd });

beforeAll(async () => {
  ({ home, cleanup } = await createTempHome());
  const started = await team(['run', 'start', 'coding-team', '--agent-cmd', 'sleep 600', '--json']);
  expect(started.code, started.stderr + started.stdout).toBe(0);
  runId = started.json().runId as string;
  // A fresh secret for the implementer, as its host would hand it (the idle process keeps the old one).
  token = await issueMemberCredential(home, runId, 'implementer', {
    store: createFileStore({ root: home }),
  });
});

afterAll(async () => {
  await team(['run', 'stop', runId, '--force', '--json']);
  await cleanup();
});

describe('team mcp config', () => {
  it("prints each host's configuration with the member's identity", async () => {
    const codex = await team([
      'mcp',
      'config',
      '--host',
      'codex',
      '--member',
      'implementer',
      '--run',
      runId.slice(0, 8),
    ]);
    expect(codex.code, codex.stderr).toBe(0);
    expect(codex.stdout).toContain('[mcp_servers.teamkit]');
    expect(codex.stdout).toContain(`"TEAMKIT_RUN" = "${runId}"`);
    expect(codex.stdout).toContain('"TEAMKIT_MEMBER" = "implementer"');
    expect(codex.stdout).toContain(
      'env_vars = ["TEAMKIT_HOME", "TEAMKIT_RUN", "TEAMKIT_MEMBER", "TEAMKIT_TOKEN"]',
    );
    expect(codex.stdout).toContain('default_tools_approval_mode = "approve"');
    expect(codex.stdout).not.toContain('--team-cli');
    const gemini = await team(['mcp', 'config', '--host', 'gemini', '--json']);
    const config = JSON.parse(gemini.json().config as string);
    expect(config.mcpServers.teamkit).toMatchObject({ trust: true, env: {} });
    expect(config.mcpServers.teamkit.args).toEqual(expect.arrayContaining(['--host', 'gemini']));
    // Gemini CLI redacts variables named like secrets unless they are allowed by name.
    expect(config.security.environmentVariableRedaction.allowed).toEqual(['TEAMKIT_TOKEN']);
    const ghost = await team([
      'mcp',
      'config',
      '--host',
      'claude',
      '--member',
      'ghost',
      '--run',
      runId,
    ]);
    expect(ghost.code).toBe(3);
    expect(ghost.stderr).toContain('UNKNOWN_MEMBER');
    expect((await team(['mcp', 'config', '--host', 'vim'])).code).toBe(2);
  });

  it("merges into the host's file, keeping everything else", async () => {
    const folder = path.join(home, 'project');
    await mkdir(folder, { recursive: true });
    await writeFile(
      path.join(folder, '.mcp.json'),
      JSON.stringify({ mcpServers: { other: { command: 'other' } } }),
    );
    const wrote = await team(['mcp', 'config', '--host', 'claude', '--write'], {}, folder);
    expect(wrote.stdout).toMatch(/^updated .*\.mcp\.json/);
    const claude = JSON.parse(await readFile(path.join(folder, '.mcp.json'), 'utf8'));
    expect(Object.keys(claude.mcpServers).sort()).toEqual(['other', 'teamkit']);
    const toml = path.join(folder, 'config.toml');
    await writeFile(
      toml,
      'model = "m"\n\n[mcp_servers.teamkit]\ncommand = "old"\n\n[other]\nx = 1\n',
    );
    await team(['mcp', 'config', '--host', 'codex', '--write', '--file', toml, '--tools', 'lead']);
    const merged = await readFile(toml, 'utf8');
    expect(merged).not.toContain('command = "old"');
    expect(merged).toContain('"--tools", "lead"');
    // The lead tools' create and delete run this CLI, so the lead profile names it.
    expect(merged).toContain(`"--team-cli", ${JSON.stringify(CLI_BIN)}`);
    expect(merged.startsWith('model = "m"\n')).toBe(true);
    expect(merged).toContain('[other]\nx = 1');
    await writeFile(path.join(folder, 'opencode.json'), '{ not json');
    const broken = await team(['mcp', 'config', '--host', 'opencode', '--write'], {}, folder);
    expect(broken.stderr).toContain('INVALID_CONFIG');
    expect(await readFile(path.join(folder, 'opencode.json'), 'utf8')).toBe('{ not json');
  });
});

/** Starts `command` as an MCP host would, calls one tool, and returns its exit code and replies. */
async function callOneTool(
  command: string,
  args: string[],
  env: Record<string, string>,
  tool: { name: string; arguments: Record<string, unknown> },
): Promise<{ code: unknown; replies: { id?: number; result?: unknown }[] }> {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'test', version: '1' },
    },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: tool });
  const deadline = Date.now() + 30_000;
  while (!stdout.includes('"id":2') && child.exitCode === null && Date.now() < deadline) {
    await delay(50);
  }
  child.stdin.end();
  const code = await exited;
  const replies = stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  return { code, replies };
}

describe('team mcp config --as user', () => {
  it('writes a server that starts acting as the user, and refuses what could not start', async () => {
    const printed = await team([
      'mcp',
      'config',
      '--host',
      'claude',
      '--as',
      'user',
      '--run',
      runId.slice(0, 8),
      '--json',
    ]);
    expect(printed.code, printed.stderr).toBe(0);
    const server = JSON.parse(printed.json().config as string).mcpServers.teamkit as {
      command: string;
      args: string[];
      env: Record<string, string>;
    };
    expect(server.args).toEqual(expect.arrayContaining(['--as', 'user']));
    expect(server.env).toEqual({ TEAMKIT_HOME: home, TEAMKIT_RUN: runId });
    const call = await callOneTool(server.command, server.args, server.env, {
      name: 'send_message',
      arguments: { to: 'lead', message: 'from the user over MCP' },
    });
    expect(call.code).toBe(0);
    const result = call.replies.find((reply) => reply.id === 2)?.result as
      | { isError?: boolean }
      | undefined;
    expect(result).toBeDefined();
    expect(result?.isError).not.toBe(true);
    const inbox = path.join(home, 'runtime', runId, 'inboxes', 'lead');
    const bodies = await Promise.all(
      (await readdir(inbox))
        .filter((name) => name.endsWith('.json'))
        .map(async (name) => JSON.parse(await readFile(path.join(inbox, name), 'utf8'))),
    );
    expect(bodies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: 'user', body: 'from the user over MCP' }),
      ]),
    );

    const someone = await team(['mcp', 'config', '--host', 'claude', '--as', 'lead', '--json']);
    expect(someone.code).toBe(2);
    expect(someone.json()).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    const both = await team([
      'mcp',
      'config',
      '--host',
      'claude',
      '--as',
      'user',
      '--member',
      'implementer',
      '--run',
      runId,
    ]);
    expect(both.code).toBe(2);
    const member = await team(['mcp', 'config', '--host', 'claude', '--as', 'user', '--json'], {
      TEAMKIT_HOME: home,
      TEAMKIT_RUN: runId,
      TEAMKIT_MEMBER: 'implementer',
      TEAMKIT_TOKEN: token,
    });
    expect(member.code).toBe(5);
    expect(member.json()).toMatchObject({ error: { code: 'IDENTITY_MISMATCH' } });
  });
});

describe('team mcp', () => {
  it('refuses a non-lead the same way as the member command does', async () => {
    const created = await team(['task', 'create', runId, 'Review me', '--json']);
    const id = (created.json().task as { id: string }).id;
    const implementer = {
      TEAMKIT_HOME: home,
      TEAMKIT_RUN: runId,
      TEAMKIT_MEMBER: 'implementer',
      TEAMKIT_TOKEN: token,
    };
    // A member's own server does not offer lead tools; one shared server acting for the
    // member (started as the lead, naming the member per call) refuses them as the tool does.
    const leadToken = await issueMemberCredential(home, runId, 'lead', {
      store: createFileStore({ root: home }),
    });
    const lead = { ...implementer, TEAMKIT_MEMBER: 'lead', TEAMKIT_TOKEN: leadToken };
    const call = await callOneTool(process.execPath, [CLI_BIN, 'mcp', '--member-argument'], lead, {
      name: 'task_approve',
      arguments: { id, asMember: 'implementer' },
    });
    const overMcp = call.replies.find((reply) => reply.id === 2)?.result as
      | { isError?: boolean; _meta?: Record<string, { code?: string }> }
      | undefined;
    expect(overMcp?.isError).toBe(true);
    const command = await runCli(['task', 'approve', id, '--json'], {
      PATH: process.env.PATH ?? '',
      ...implementer,
    });
    expect(command.code).toBe(5);
    const code = (command.json().error as { code: string }).code;
    expect(code).toBe('NOT_LEAD');
    expect(overMcp?._meta?.['teamkit/error']?.code).toBe(code);
  });

  it('serves the same tools as the member its environment names', async () => {
    const child = spawn(process.execPath, [CLI_BIN, 'mcp'], {
      env: {
        PATH: process.env.PATH ?? '',
        TEAMKIT_HOME: home,
        TEAMKIT_RUN: runId,
        TEAMKIT_MEMBER: 'implementer',
        TEAMKIT_TOKEN: token,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'test', version: '1' },
      },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'send_message', arguments: { to: 'lead', message: 'over team mcp' } },
    });
    const deadline = Date.now() + 30_000;
    while (!stdout.includes('"id":2') && Date.now() < deadline) {
      await delay(50);
    }
    child.stdin.end();
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
    for (const line of stdout.split('\n').filter(Boolean))
      expect(JSON.parse(line).jsonrpc).toBe('2.0');
    const inbox = path.join(home, 'runtime', runId, 'inboxes', 'lead');
    const files = (await readdir(inbox)).filter((name) => name.endsWith('.json'));
    const messages = await Promise.all(
      files.map(async (name) => JSON.parse(await readFile(path.join(inbox, name), 'utf8'))),
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: 'implementer', body: 'over team mcp' }),
      ]),
    );
  });
});
