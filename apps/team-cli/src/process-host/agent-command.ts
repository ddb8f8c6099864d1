import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageBinPath } from '@teamkit/agent-clis';
import { TeamkitError } from '@teamkit/team-core/errors';
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

/** The package whose `bin` entry {@link SCRIPTED_AGENT_NAME} is the scripted agent. */
export const SCRIPTED_AGENT_PACKAGE = '@teamkit/test-harness';

/**
 * The scripted agent's program: the file the `teamkit-agent` entry of the `bin` field of
 * `@teamkit/test-harness` names, as this package resolves it (so an install from the
 * registry and a workspace find it alike). `folder` is where the lookup starts (this
 * module's folder by default). Missing is `AGENT_NOT_FOUND`.
 */
export function scriptedAgentPath(
  folder: string = path.dirname(fileURLToPath(import.meta.url)),
): string {
  const bin = packageBinPath(SCRIPTED_AGENT_PACKAGE, SCRIPTED_AGENT_NAME, folder);
  if (bin === undefined) {
    throw new TeamkitError(
      'AGENT_NOT_FOUND',
      `The scripted agent ${SCRIPTED_AGENT_NAME} is not installed: ${SCRIPTED_AGENT_PACKAGE}, whose bin it is, cannot be found from ${folder}. Install it beside @teamkit/team-cli, or start the members with --agent or --agent-cmd.`,
      { details: { agent: SCRIPTED_AGENT_NAME, packageName: SCRIPTED_AGENT_PACKAGE } },
    );
  }
  return bin;
}

/** Turns a leading `teamkit-agent` into this Node running the harness's agent. */
export function resolveScriptedAgent(argv: readonly string[]): string[] {
  if (argv[0] !== SCRIPTED_AGENT_NAME) return [...argv];
  return [process.execPath, scriptedAgentPath(), ...argv.slice(1)];
}
