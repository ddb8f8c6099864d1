import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createMemberClient, issueMemberCredential, type MemberClient } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import type { NotAvailable } from '../not-available.js';
import { notAvailable } from '../not-available.js';
import { BENCH_LOCK, ensureBenchRun } from './bench-run.js';

/** A team tool reached two ways: the member client in this process, and the MCP server over stdio. */
export interface McpCallSubject {
  /** The primitive: the member client's call. */
  direct: MemberClient;
  /** One `tools/call` to a `teamkit-mcp` process acting as the same member. */
  callTool(name: string, args: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/** Starts a `teamkit-mcp` server as member `builder` of a bench run under `home`. */
export async function createMcpCallSubject(home: string): Promise<McpCallSubject | NotAvailable> {
  let bin: string;
  try {
    bin = fileURLToPath(new URL('./bin.js', import.meta.resolve('@teamkit/mcp')));
  } catch (error) {
    return notAvailable(`@teamkit/mcp is not built: ${String(error)}`);
  }
  const runId = await ensureBenchRun(home);
  const direct = createMemberClient({
    store: createFileStore({ root: home }),
    home,
    runId,
    member: 'builder',
    lock: BENCH_LOCK,
  });
  const token = await issueMemberCredential(home, runId, 'builder', {
    store: createFileStore({ root: home }),
    lock: BENCH_LOCK,
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--tools', 'all'],
    env: {
      PATH: process.env.PATH ?? '',
      TEAMKIT_HOME: home,
      TEAMKIT_RUN: runId,
      TEAMKIT_MEMBER: 'builder',
      TEAMKIT_TOKEN: token,
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'teamkit-bench', version: '1.0.0' });
  await client.connect(transport);
  return {
    direct,
    async callTool(name, args) {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    },
    close: () => client.close(),
  };
}
