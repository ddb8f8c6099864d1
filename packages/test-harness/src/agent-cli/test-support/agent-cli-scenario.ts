import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockTurnResolver } from '../../mock-model-server/mock-model-script.js';
import {
  type MockModelServer,
  startMockModelServer,
} from '../../mock-model-server/start-mock-model-server.js';
import type { AgentCliEnvironment, AgentCliEnvironmentOptions } from '../agent-cli-environment.js';
import type { AgentCliName } from '../agent-cli-name.js';
import { createAgentCliEnvironment } from '../create-agent-cli-environment.js';
import type { FoundAgentCli } from '../find-agent-cli.js';
import { type AgentCliRun, describeAgentCliRun, runAgentCli } from '../run-agent-cli.js';

/** The echo MCP server fixture: tool `echo`, and a JSON-lines log of its start and calls. */
export const ECHO_MCP_SERVER = fileURLToPath(
  new URL('../__fixtures__/echo-mcp-server.mjs', import.meta.url),
);

/** How long one CLI process may run in these tests. */
export const TURN_TIMEOUT_MS = 180_000;

/** One temp folder with a git repository to work in, a folder outside it, and a mock model. */
export interface AgentCliScenario {
  root: string;
  /** A git repository with one commit: the CLI's working folder. */
  repo: string;
  /** A folder beside the repository, outside the CLI's working folder. */
  outside: string;
  server: MockModelServer;
  environment: AgentCliEnvironment;
  /** The echo MCP server's log (JSON lines), when the scenario loads it. */
  mcpLog: string;
  /** Runs one turn with these arguments in the repository and prints its wall time. */
  run(label: string, args: string[]): Promise<AgentCliRun & { report: string }>;
  /** The echo MCP server's log entries. */
  mcpEntries(): Record<string, unknown>[];
  cleanup(): Promise<void>;
}

/** Options of {@link createAgentCliScenario}. */
export interface AgentCliScenarioOptions
  extends Omit<AgentCliEnvironmentOptions, 'root' | 'server' | 'mcpServers'> {
  /** Builds the model's script from the scenario's folders. */
  script: (paths: { repo: string; outside: string }) => MockTurnResolver;
  /** Adds the repository's git folder to `writableRoots` (Codex's sandbox keeps `.git` read-only). */
  writableRootsFromRepo?: boolean;
  /** Loads the echo MCP server as `echo`, with these variables in its configuration. */
  echoMcp?: { env?: Record<string, string>; inheritEnv?: string[] };
}

/** Sets up a scenario for one CLI; `cleanup()` stops the server and removes the folder. */
export async function createAgentCliScenario(
  cli: FoundAgentCli,
  options: AgentCliScenarioOptions,
): Promise<AgentCliScenario> {
  const root = realpathSync(await mkdtemp(join(tmpdir(), `teamkit-${cli.name}-`)));
  const repo = join(root, 'repo');
  const outside = join(root, 'outside');
  for (const dir of [repo, outside]) mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  git(
    '-c',
    'user.name=Test',
    '-c',
    'user.email=test@teamkit.invalid',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'start',
  );
  const mcpLog = join(root, 'echo-mcp.jsonl');
  const server = await startMockModelServer({
    script: options.script({ repo, outside }),
    idleTimeoutMs: 10 * 60_000,
  });
  const { script: _script, echoMcp, writableRootsFromRepo, ...environmentOptions } = options;
  if (writableRootsFromRepo) {
    environmentOptions.writableRoots = [...(options.writableRoots ?? []), join(repo, '.git')];
  }
  const environment = createAgentCliEnvironment(cli.name as AgentCliName, {
    ...environmentOptions,
    root: join(root, 'agent'),
    server,
    ...(echoMcp
      ? {
          mcpServers: {
            echo: {
              command: process.execPath,
              args: [ECHO_MCP_SERVER, mcpLog],
              ...(echoMcp.env ? { env: echoMcp.env } : {}),
              ...(echoMcp.inheritEnv ? { inheritEnv: echoMcp.inheritEnv } : {}),
            },
          },
        }
      : {}),
  });
  return {
    root,
    repo,
    outside,
    server,
    environment,
    mcpLog,
    async run(label, args) {
      const result = await runAgentCli(cli.path, args, {
        cwd: repo,
        env: environment.env,
        timeoutMs: TURN_TIMEOUT_MS,
      });
      console.info(`[timing] ${cli.name} ${label}: ${result.durationMs} ms, exit ${result.code}`);
      return { ...result, report: describeAgentCliRun(`${cli.name} ${label}`, result) };
    },
    mcpEntries() {
      if (!existsSync(mcpLog)) return [];
      return readFileSync(mcpLog, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    async cleanup() {
      await server.close();
      await rm(root, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
