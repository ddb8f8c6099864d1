/** How a command prints: one JSON document, or concise human text. */
export interface Output {
  readonly json: boolean;
  readonly color: boolean;
  /** Prints a command's result: `data` as `{ ok: true, …data }` in JSON mode, else `human()`. */
  result(data: Record<string, unknown>, human: () => string): void;
  /**
   * Prints a failure and resolves with the exit code to use. The error printer loads
   * only then, so a command that succeeds does not load it.
   */
  failure(error: unknown): Promise<number>;
  /**
   * Resolves once everything printed so far has been handed to the operating system, so
   * it is shown even if this process dies next (writes to a pipe are asynchronous).
   */
  flush(): Promise<void>;
  /** Writes a line of progress to stderr (human mode only), keeping stdout for the result. */
  note(text: string): void;
  /** Styles text when colour is on. */
  style(kind: 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan', text: string): string;
}

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
};

/** Options for {@link createOutput}. */
export interface OutputOptions {
  json: boolean;
  stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  stderr?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

/** Creates the printer for one command run; colour only on a TTY without `NO_COLOR`. */
export function createOutput(options: OutputOptions): Output {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  const color =
    !options.json &&
    Boolean((stdout as { isTTY?: boolean }).isTTY) &&
    (env.NO_COLOR === undefined || env.NO_COLOR === '') &&
    env.TERM !== 'dumb';
  const style: Output['style'] = (kind, text) => {
    if (!color) return text;
    const [open, close] = CODES[kind];
    return `\u001b[${open}m${text}\u001b[${close}m`;
  };
  return {
    json: options.json,
    color,
    style,
    note(text) {
      if (!options.json) stderr.write(`${text}\n`);
    },
    result(data, human) {
      if (options.json) stdout.write(`${JSON.stringify({ ok: true, ...data })}\n`);
      else {
        const text = human();
        if (text !== '') stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      }
    },
    flush() {
      return new Promise((resolve, reject) => {
        stdout.write('', (error) => (error ? reject(error) : resolve()));
      });
    },
    async failure(error) {
      const [{ isTeamkitError }, { exitCodeFor, UsageError }] = await Promise.all([
        import('@teamkit/team-core/errors'),
        import('./exit-codes.js'),
      ]);
      const code = exitCodeFor(error);
      const payload = isTeamkitError(error)
        ? error.toJSON()
        : error instanceof UsageError
          ? { code: 'USAGE', message: error.message }
          : // Not errorMessage: this module is bundled into the start-up path, which cannot
            // load @teamkit/team-core/errors without a second copy of TeamkitError.
            { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
      if (options.json) stdout.write(`${JSON.stringify({ ok: false, error: payload })}\n`);
      else stderr.write(`${style('red', 'error')} ${payload.code}: ${payload.message}\n`);
      return code;
    },
  };
}
