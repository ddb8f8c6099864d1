import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'shell-quote';
import { UsageError } from '../exit-codes.js';

/** The values an `--agent-cmd` template may name, as `{member}`, `{role}`, … */
export interface AgentCommandValues {
  member: string;
  role: string;
  run: string;
  team: string;
  'prompt-file': string;
  home: string;
  cwd: string;
  model: string;
  /** The text of the turn, for one-shot (turn-based) templates; empty for long-lived ones. */
  prompt: string;
}

/** The name that stands for the harness's scripted agent in a template. */
export const SCRIPTED_AGENT_NAME = 'teamkit-agent';

/** The template used when none is given: every member is a scripted `teamkit-agent`. */
export const DEFAULT_AGENT_COMMAND = SCRIPTED_AGENT_NAME;

/**
 * Parses an `--agent-cmd` template into argument words. It is never run by a shell:
 * operators (`;`, `|`, `&&`, redirections), globs and `$VAR` are refused as usage errors.
 */
export function parseAgentCommand(template: string): string[] {
  const words: string[] = [];
  let refused: string | undefined;
  const entries = parse(template, (key) => {
    refused ??= `$${key}`;
    return undefined;
  });
  for (const entry of entries) {
    if (typeof entry === 'string') words.push(entry);
    else if ('op' in entry) refused ??= entry.op === 'glob' ? (entry.pattern ?? '*') : entry.op;
    else refused ??= `#${entry.comment}`;
  }
  if (refused !== undefined) {
    throw new UsageError(
      `The agent command template may not contain "${refused}": it is an argument list, not a shell line.`,
    );
  }
  if (words.length === 0) throw new UsageError('The agent command template is empty.');
  return words;
}

/** Replaces `{name}` placeholders in each word; unknown braces are left as they are. */
export function expandAgentCommand(words: readonly string[], values: AgentCommandValues): string[] {
  return words.map((word) =>
    word.replace(
      /\{(member|role|run|team|prompt-file|home|cwd|model|prompt)\}/g,
      (_match, key: string) => String(values[key as keyof AgentCommandValues]),
    ),
  );
}

/** The path of the scripted agent's entry point in `@teamkit/test-harness`. */
export function scriptedAgentPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(
    path.dirname(require.resolve('@teamkit/test-harness/package.json')),
    'dist',
    'bin',
    'teamkit-agent.js',
  );
}

/** Turns a leading `teamkit-agent` into this Node running the harness's agent. */
export function resolveScriptedAgent(argv: readonly string[]): string[] {
  if (argv[0] !== SCRIPTED_AGENT_NAME) return [...argv];
  return [process.execPath, scriptedAgentPath(), ...argv.slice(1)];
}
