import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTeamRuntime, issueMemberCredential, type Task } from '@teamkit/team-core';
import { createFileStore, type TeamkitStore } from '@teamkit/team-core/storage';
import { createTeamFixture, createTestHost, type TeamFixture } from '@teamkit/test-harness';

/** The built `teamkit-mcp` program (tests run after `pnpm build`). */
export const TEAMKIT_MCP_BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** A run of team `crew` (lead `lead`, members `writer` and `reviewer`) in a temp home, with passive members. */
export interface McpRunFixture {
  fixture: TeamFixture;
  home: string;
  /** The file store of `home`, which holds the run. */
  store: TeamkitStore;
  runId: string;
  /** The environment Teamkit gives a member's process, its secret included. */
  memberEnv(member: string): Record<string, string>;
  /** Each member's secret (`TEAMKIT_TOKEN`), as its host got it. */
  tokens: Record<string, string>;
  /** Connects the SDK's client to a new `teamkit-mcp` process started with `env` and `args`. */
  connect(env: Record<string, string>, args?: string[]): Promise<McpConnection>;
  /** The member's unread messages on disk (`inboxes/<member>/*.json`). */
  unread(member: string): Promise<{ from: string; body: string; to: string }[]>;
  /** The task as it is on disk. */
  task(id: string): Promise<Task>;
  /** Every file under the run folder and its content (lock folders and the event log excluded). */
  snapshot(): Promise<Map<string, string>>;
  cleanup(): Promise<void>;
}

/** One client connected to one server process. */
export interface McpConnection {
  client: Client;
  transport: StdioClientTransport;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

const connections: McpConnection[] = [];

/** Starts a run whose members are passive sessions (mail stays unread until read). */
export async function createMcpRunFixture(): Promise<McpRunFixture> {
  const fixture = await createTeamFixture({ prefix: 'teamkit-mcp-' });
  const store = createFileStore({ root: fixture.home });
  const runtime = await createTeamRuntime({
    home: fixture.home,
    store,
    host: createTestHost(),
    env: fixture.env,
  });
  const { runId } = await runtime.startRun({
    id: 'crew',
    name: 'Crew',
    lead: 'lead',
    members: [
      { name: 'lead', role: 'lead', prompt: 'Plan.' },
      { name: 'writer', role: 'implementer', prompt: 'Write.' },
      { name: 'reviewer', role: 'reviewer', prompt: 'Review.' },
    ],
  });
  const runFolder = join(fixture.home, 'runtime', runId);
  // The secrets the host would hand each member's process (fresh ones, recorded in the run).
  const tokens: Record<string, string> = {};
  for (const member of ['lead', 'writer', 'reviewer']) {
    tokens[member] = await issueMemberCredential(fixture.home, runId, member, { store });
  }
  const base = { PATH: process.env.PATH ?? '', HOME: fixture.root, TEAMKIT_HOME: fixture.home };
  return {
    fixture,
    home: fixture.home,
    store,
    runId,
    tokens,
    memberEnv: (member) => ({
      ...base,
      TEAMKIT_RUN: runId,
      TEAMKIT_MEMBER: member,
      ...(tokens[member] === undefined ? {} : { TEAMKIT_TOKEN: tokens[member] }),
    }),
    async connect(env, args = []) {
      let stderr = '';
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [TEAMKIT_MCP_BIN, ...args],
        env: { ...base, ...env },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      const client = new Client({ name: 'teamkit-conformance', version: '1.0.0' });
      await client.connect(transport);
      const connection: McpConnection = {
        client,
        transport,
        stderr: () => stderr,
        close: () => client.close().catch(() => undefined),
      };
      connections.push(connection);
      return connection;
    },
    async unread(member) {
      const folder = join(runFolder, 'inboxes', member);
      const names = await readdir(folder).catch(() => [] as string[]);
      return Promise.all(
        names
          .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
          .map(async (name) => JSON.parse(await readFile(join(folder, name), 'utf8'))),
      );
    },
    async task(id) {
      return JSON.parse(await readFile(join(runFolder, 'tasks', `${id}.json`), 'utf8')) as Task;
    },
    async snapshot() {
      const files = new Map<string, string>();
      const walk = async (folder: string): Promise<void> => {
        for (const entry of await readdir(folder, { withFileTypes: true })) {
          const full = join(folder, entry.name);
          if (entry.name.endsWith('.lock') || entry.name === 'events.jsonl') continue;
          if (entry.isDirectory()) await walk(full);
          else files.set(full.slice(runFolder.length), await readFile(full, 'utf8'));
        }
      };
      await walk(runFolder);
      return files;
    },
    async cleanup() {
      await Promise.all(connections.splice(0).map((connection) => connection.close()));
      await fixture.cleanup();
    },
  };
}

/** The text of a tool result's first content block. */
export function resultText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.find((block) => block.type === 'text')?.text ?? '';
}
