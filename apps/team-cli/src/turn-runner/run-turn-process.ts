import { spawn } from 'node:child_process';

/** How one turn process ended. */
export interface TurnProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What it printed on stdout (the head and the tail when it printed more than the cap). */
  stdout: string;
  /** True when {@link TurnProcess.stop} ended it. */
  stopped: boolean;
}

/** A running turn: its pid and a way to end it with everything it started. */
export interface TurnProcess {
  pid: number;
  done: Promise<TurnProcessResult>;
  /** Ends the turn's process group: SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILLs the turn's process group at once (for exit handlers). */
  kill(): void;
}

const STDOUT_CAP = 8 * 1024 * 1024;

function signalGroup(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts one turn of an agent CLI: the argument array as given (never a shell), stdin
 * closed (Codex and OpenCode wait on a stdin pipe), in its own process group so an
 * interrupt or a stop ends the CLI and whatever it started (MCP servers, shells). Its
 * output goes on to `echo` (the member's log or pane) and stdout is also kept, for the
 * conversation id.
 */
export function startTurnProcess(
  argv: readonly string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    echo?: { stdout: (chunk: Buffer) => void; stderr: (chunk: Buffer) => void };
  },
): TurnProcess {
  const [program, ...args] = argv;
  if (program === undefined) throw new Error('a turn needs a program');
  const child = spawn(program, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stopped = false;
  let head = '';
  let tail = '';
  let size = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    options.echo?.stdout(chunk);
    const text = chunk.toString('utf8');
    size += text.length;
    if (size <= STDOUT_CAP) head += text;
    else tail = (tail + text).slice(-STDOUT_CAP / 2);
  });
  child.stderr.on('data', (chunk: Buffer) => options.echo?.stderr(chunk));
  const done = new Promise<TurnProcessResult>((resolve) => {
    child.once('error', (error) => {
      options.echo?.stderr(Buffer.from(`cannot start ${program}: ${error.message}\n`));
      resolve({ code: 127, signal: null, stdout: '', stopped });
    });
    child.once('close', (code, signal) => {
      // Whatever the turn left running in its group (a background shell, a server) goes too.
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      resolve({ code, signal, stdout: tail === '' ? head : `${head}\n${tail}`, stopped });
    });
  });
  const pid = child.pid ?? 0;
  return {
    pid,
    done,
    async stop(graceMs = 3_000) {
      stopped = true;
      if (pid === 0) return;
      signalGroup(pid, 'SIGTERM');
      const timer = new Promise<'late'>((resolve) => {
        setTimeout(() => resolve('late'), graceMs).unref();
      });
      if ((await Promise.race([done, timer])) === 'late') signalGroup(pid, 'SIGKILL');
      await done;
    },
    kill() {
      stopped = true;
      if (pid !== 0) signalGroup(pid, 'SIGKILL');
    },
  };
}
