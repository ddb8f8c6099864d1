import { spawn } from 'node:child_process';

/** Options of {@link runAgentCli}. */
export interface RunAgentCliOptions {
  /** Working folder of the process. */
  cwd: string;
  /** The whole environment of the process (not merged with `process.env`). */
  env: NodeJS.ProcessEnv;
  /** Kill the process (and its process group) after this many milliseconds; 240000 by default. */
  timeoutMs?: number;
}

/** What one agent CLI process did. */
export interface AgentCliRun {
  /** Exit code, or `null` when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the timeout killed it. */
  timedOut: boolean;
  /** Wall time from spawn to exit, in milliseconds. */
  durationMs: number;
}

const running = new Set<number>();

function killGroup(pid: number): void {
  try {
    // The child leads its own process group, so this also ends what it started (MCP servers, shells).
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Runs an agent CLI with an argument array, stdin closed (OpenCode and Codex wait for
 * stdin when it is a pipe), in its own process group, and resolves with its exit, output
 * and wall time. Never rejects for a non-zero exit; rejects only when it cannot start.
 * Never call it through `spawnSync` from the process that serves the mock model: the
 * server must keep answering while the CLI runs.
 */
export function runAgentCli(
  path: string,
  args: readonly string[],
  options: RunAgentCliOptions,
): Promise<AgentCliRun> {
  const timeoutMs = options.timeoutMs ?? 240_000;
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(path, [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const pid = child.pid;
    if (pid === undefined) {
      child.once('error', reject);
      return;
    }
    running.add(pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid);
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      running.delete(pid);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(pid);
      // Whatever the CLI left behind in its group (an MCP server, a background shell) goes too.
      killGroup(pid);
      resolvePromise({ code, signal, stdout, stderr, timedOut, durationMs: Date.now() - started });
    });
  });
}

/** Kills every process group {@link runAgentCli} started that is still running (for `afterAll`). */
export function killRunningAgentClis(): void {
  for (const pid of running) killGroup(pid);
  running.clear();
}

/** A failure report for an assertion message: exit, wall time and the tails of both outputs. */
export function describeAgentCliRun(label: string, run: AgentCliRun): string {
  const tail = (text: string) => text.slice(-3000);
  const end = run.timedOut ? 'timed out' : `exited with ${run.code ?? run.signal}`;
  return [
    `${label} ${end} after ${run.durationMs} ms`,
    `stdout tail:\n${tail(run.stdout)}`,
    `stderr tail:\n${tail(run.stderr)}`,
  ].join('\n');
}
