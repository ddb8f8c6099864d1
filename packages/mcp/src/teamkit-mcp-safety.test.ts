import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { issueMemberCredential } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createMcpRunFixture,
  type McpRunFixture,
  resultText,
  TEAMKIT_MCP_BIN,
} from './test-support/mcp-run-fixture.js';

const execFileAsync = promisify(execFile);
const CLIENT_LEFT_WAITING = fileURLToPath(
  new URL('./__fixtures__/client-left-waiting.mjs', import.meta.url),
);

let run: McpRunFixture;
const children: ChildProcess[] = [];
beforeEach(async () => {
  run = await createMcpRunFixture();
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await run.cleanup();
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, probe: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

describe('identity', () => {
  it('acts as the member its environment names, never as one an argument names', async () => {
    const writer = (await run.connect(run.memberEnv('writer'))).client;
    const spoof = await writer.callTool({
      name: 'send_message',
      arguments: {
        to: 'reviewer',
        message: 'from the lead, honest',
        from: 'lead',
        asMember: 'lead',
      },
    });
    expect(resultText(spoof)).toMatch(/^error PERMISSION_DENIED: /);
    await writer.callTool({
      name: 'send_message',
      arguments: { to: 'reviewer', message: 'plain', from: 'lead' },
    });
    expect(await run.unread('reviewer')).toMatchObject([{ from: 'writer', body: 'plain' }]);
    // Even configured to take the argument, a plain member's server may not use it.
    const shared = (await run.connect(run.memberEnv('writer'), ['--member-argument'])).client;
    const refused = await shared.callTool({
      name: 'task_create',
      arguments: { subject: 'x', asMember: 'lead' },
    });
    expect(resultText(refused)).toMatch(
      /^error PERMISSION_DENIED: Only a server acting as the user or as the run's lead/,
    );
  });

  it("takes a member argument only when configured, on a lead's server, for the roster", async () => {
    const connection = await run.connect(run.memberEnv('lead'), [
      '--member-argument',
      '--members',
      'writer,reviewer',
    ]);
    const { client } = connection;
    const { tools } = await client.listTools();
    expect(
      JSON.stringify(tools.find((tool) => tool.name === 'send_message')?.inputSchema),
    ).toContain('"asMember"');
    await client.callTool({
      name: 'send_message',
      arguments: { to: 'lead', message: 'from a subagent', asMember: 'writer' },
    });
    expect(await run.unread('lead')).toMatchObject([{ from: 'writer', body: 'from a subagent' }]);
    expect(
      resultText(await client.callTool({ name: 'status', arguments: { asMember: 'ghost' } })),
    ).toMatch(/^error PERMISSION_DENIED: This server may act only for writer, reviewer/);
    expect(connection.stderr()).toContain('acting for a member named in the call');
    expect(connection.stderr()).toContain('"member":"writer"');
  });

  it('refuses a member without its own secret, and contradictory identities at start', async () => {
    const start = (env: Record<string, string>, args: string[]) =>
      execFileAsync(process.execPath, [TEAMKIT_MCP_BIN, ...args], {
        env: { PATH: process.env.PATH ?? '', ...env },
      }).then(
        () => ({ code: 0, stderr: '', stdout: '' }),
        (error: { code: number; stderr: string; stdout: string }) => error,
      );
    const ghost = await start(run.memberEnv('ghost'), []);
    expect(ghost.code).toBe(2);
    expect(ghost.stderr).toMatch(/IDENTITY_MISMATCH: Run \S+ has no member "ghost"/);
    const borrowed = await start(
      { ...run.memberEnv('writer'), TEAMKIT_TOKEN: run.tokens.lead ?? '' },
      [],
    );
    expect(borrowed.stderr).toMatch(
      /IDENTITY_MISMATCH: The TEAMKIT_TOKEN of this process is not the one member "writer"/,
    );
    const { TEAMKIT_TOKEN: _token, ...tokenless } = run.memberEnv('lead');
    expect((await start(tokenless, [])).stderr).toMatch(
      /IDENTITY_MISMATCH: .*carries no TEAMKIT_TOKEN/,
    );
    // A secret that changes under a running server (the member was restarted) stops it acting.
    const connection = await run.connect(run.memberEnv('reviewer'));
    await issueMemberCredential(run.home, run.runId, 'reviewer', {
      store: createFileStore({ root: run.home }),
    });
    expect(resultText(await connection.client.callTool({ name: 'status', arguments: {} }))).toMatch(
      /^error IDENTITY_MISMATCH: /,
    );
    const asUser = await start(run.memberEnv('writer'), ['--as', 'user']);
    expect(asUser.code).toBe(2);
    expect(asUser.stderr).toMatch(/IDENTITY_MISMATCH: This process is member "writer"/);
    expect(asUser.stdout).toBe('');
    const otherRun = await start(run.memberEnv('writer'), [
      '--run',
      '00000000-0000-4000-8000-000000000000',
    ]);
    expect(otherRun.stderr).toMatch(/IDENTITY_MISMATCH: .* cannot act in run/);
    expect((await start({}, ['--tools', 'huge'])).stderr).toMatch(
      /INVALID_INPUT: --tools is one of/,
    );
  });
});

describe('hostile input', () => {
  it('leaves nothing written after 100 hostile calls, and keeps serving', async () => {
    const writer = (await run.connect(run.memberEnv('writer'), ['--tools', 'all'])).client;
    const lead = (await run.connect(run.memberEnv('lead'), ['--tools', 'all'])).client;
    await lead.callTool({ name: 'task_create', arguments: { subject: 'Keep me' } });
    const before = await run.snapshot();
    const long = 'x'.repeat(300_000);
    const names = [
      '../lead',
      '..',
      '.',
      '',
      'lead/../writer',
      'LEAD',
      'lead\u0000',
      '*/',
      'a'.repeat(65),
      ' lead',
    ];
    const ids = ['0', '-1', '1.5', '../1', '1/..', '', '١', '99999999999999999', 'NaN', '1e3'];
    const hostile: [string, Record<string, unknown>][] = [];
    for (const name of names) {
      hostile.push(['send_message', { to: name, message: 'x' }]);
      hostile.push(['task_list', { owner: name, status: name }]);
      hostile.push(['task_update', { id: '1', owner: name }]);
    }
    for (const id of ids) {
      hostile.push(['task_claim', { id }]);
      hostile.push(['task_update', { id, status: 'completed' }]);
      hostile.push(['task_create', { subject: 'x', blockedBy: [id] }]);
    }
    for (const value of [
      null,
      1,
      true,
      [],
      ['x'],
      { toString: 'x' },
      long,
      { nested: [1] },
      -1,
      {},
    ]) {
      hostile.push(['send_message', { to: 'lead', message: value }]);
      hostile.push(['task_create', { subject: value }]);
      hostile.push(['acknowledge', { messageIds: value }]);
      hostile.push(['permission_request', { action: 'write', path: value }]);
    }
    hostile.push(['send_message', { to: 'lead', message: long.repeat(4) }]);
    hostile.push(['task_update', { id: '1', status: 'approved', __proto__: { owner: 'lead' } }]);
    hostile.push(['permission_request', { action: 'write', path: '/tmp/../etc/\u0000' }]);
    hostile.push(['permission_request', { action: '', path: '/etc/hosts' }]);
    hostile.push(['reject_shutdown', { reason: long }]);
    hostile.push(['task_update', { id: '1', status: 'approved' }]);
    hostile.push(['task_update', { id: '1', status: 'pending', note: 'x' }]);
    hostile.push(['approve_shutdown', {}]);
    hostile.push(['wait_for_mail', { timeoutSeconds: -5 }]);
    hostile.push(['task_update', { id: '1', status: 'in_progress', note: long }]);
    expect(hostile.length).toBeGreaterThanOrEqual(100);
    for (const [name, args] of hostile) {
      const result = await writer.callTool({ name, arguments: args });
      expect(
        result.isError,
        `${name} ${JSON.stringify(args).slice(0, 200)}: ${resultText(result)}`,
      ).toBe(true);
      expect(resultText(result)).toMatch(/^error [A-Z_]+: /);
    }
    expect(await run.snapshot()).toEqual(before);
    expect((await writer.callTool({ name: 'status', arguments: {} })).isError).toBeFalsy();
  });
});

describe('the process', () => {
  it('writes only protocol on stdout, and logs to stderr', async () => {
    const child = spawn(process.execPath, [TEAMKIT_MCP_BIN], {
      env: { PATH: process.env.PATH ?? '', ...run.memberEnv('writer') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'task_claim', arguments: { id: 'no' } },
    });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope', arguments: {} } });
    await until('four answers', () => stdout.split('\n').filter(Boolean).length >= 4);
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter(Boolean);
    for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    expect(lines.map((line) => JSON.parse(line).id).sort()).toEqual([1, 2, 3, 4]);
    expect(JSON.parse(lines.find((line) => JSON.parse(line).id === 3) ?? '{}').result.isError).toBe(
      true,
    );
    expect(stderr).toContain('teamkit-mcp info: serving');
  });

  it('exits cleanly when its client is killed in the middle of a wait', async () => {
    const client = spawn(process.execPath, [CLIENT_LEFT_WAITING, TEAMKIT_MCP_BIN], {
      env: { PATH: process.env.PATH ?? '', ...run.memberEnv('writer') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(client);
    let output = '';
    client.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    await until('the server pid', () => /^\d+\n/.test(output));
    const serverPid = Number(output.trim());
    expect(isRunning(serverPid)).toBe(true);
    client.kill('SIGKILL');
    // The wait was for 50 s; the server ends it and exits as soon as its stdin closes.
    await until('the server to exit', () => !isRunning(serverPid), 20_000);
  });
});
