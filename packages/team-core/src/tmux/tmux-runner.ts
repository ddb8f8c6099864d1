import { execFile } from 'node:child_process';
import { TeamkitError } from '../errors/index.js';

/** The one seam through which Teamkit runs tmux: argument arrays only, never a shell. */
export interface TmuxRunner {
  /** Runs `tmux <socket args> <args>` and returns its stdout; `TMUX_FAILED` on a non-zero exit. */
  run(args: string[]): Promise<string>;
  /** Like {@link TmuxRunner.run} but returns the exit code and stderr instead of throwing on failure. */
  tryRun(args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  /**
   * Runs `fn` after every earlier `serialize` call on the same tmux server has finished.
   * Do not call `serialize` from inside `fn`: it would wait for itself.
   */
  serialize<T>(fn: () => Promise<T>): Promise<T>;
  /** The server this runner talks to, recorded in a layout (`-L` name or `-S` path). */
  readonly socket: string | undefined;
}

/** Options for {@link createTmuxRunner}. */
export interface TmuxRunnerOptions {
  /** A named server (`tmux -L <name>`). */
  socketName?: string;
  /** A server socket path (`tmux -S <path>`); wins over `socketName`. */
  socketPath?: string;
  /** The tmux executable; default `tmux` from PATH. */
  tmux?: string;
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Creates the tmux runner. Every call names its server explicitly when a socket is
 * given; a missing tmux is `TMUX_UNAVAILABLE`, a failed command `TMUX_FAILED` with the
 * arguments and stderr. Layout changes are serialised per server within the process.
 */
export function createTmuxRunner(options: TmuxRunnerOptions = {}): TmuxRunner {
  const tmux = options.tmux ?? 'tmux';
  const socketArgs =
    options.socketPath !== undefined
      ? ['-S', options.socketPath]
      : options.socketName !== undefined
        ? ['-L', options.socketName]
        : [];
  const socket = options.socketPath ?? options.socketName;
  const queueKey = `${tmux}\0${socketArgs.join('\0')}`;

  const tryRun: TmuxRunner['tryRun'] = (args) =>
    new Promise((resolve, reject) => {
      execFile(
        tmux,
        [...socketArgs, ...args],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error === null) {
            resolve({ exitCode: 0, stdout, stderr });
            return;
          }
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
            reject(
              new TeamkitError(
                'TMUX_UNAVAILABLE',
                `tmux could not be started (${tmux}); install tmux or run without panes.`,
                { cause: error, details: { tmux } },
              ),
            );
            return;
          }
          resolve({ exitCode: typeof error.code === 'number' ? error.code : -1, stdout, stderr });
        },
      );
    });

  return {
    socket,
    tryRun,
    async run(args) {
      const result = await tryRun(args);
      if (result.exitCode !== 0) {
        throw new TeamkitError(
          'TMUX_FAILED',
          `tmux ${args.join(' ')} failed (exit ${result.exitCode}): ${result.stderr.trim()}`,
          { details: { args, exitCode: result.exitCode, stderr: result.stderr } },
        );
      }
      return result.stdout;
    },
    serialize(fn) {
      const previous = queues.get(queueKey) ?? Promise.resolve();
      const next = previous.then(fn, fn);
      const settled = next.then(
        () => {},
        () => {},
      );
      queues.set(queueKey, settled);
      void settled.then(() => {
        if (queues.get(queueKey) === settled) queues.delete(queueKey);
      });
      return next;
    },
  };
}
