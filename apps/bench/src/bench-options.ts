import { parseArgs } from 'node:util';

/** What `pnpm bench` was asked to do. */
export interface BenchOptions {
  quick: boolean;
  /** Figure ids to run; empty means all. */
  only: string[];
  /** Where to write the results JSON. */
  output: string | undefined;
  help: boolean;
}

/** Usage text for `--help` and for bad arguments. */
export const USAGE = `Usage: pnpm bench [--quick] [--only <figure>[,<figure>...]] [--out <file>]

  --quick          fewer rounds and smaller sizes (under two minutes)
  --only <ids>     run only these figures (repeatable or comma-separated)
  --out <file>     write the results JSON here instead of apps/bench/results/latest.json
  --help           show this text`;

/** Parses the command line; throws a TypeError with a readable message on bad input. */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const only = (values.only ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  return { quick: values.quick ?? false, only, output: values.out, help: values.help ?? false };
}
