import type { ClaudeTeamWriter } from '@teamkit/claude-code';
import { TeamkitError } from '@teamkit/team-core';

/**
 * The actions the page may take on a Claude Code team: the two writes
 * `@teamkit/claude-code` makes safely (a message to a member or the lead, a new task),
 * each under Claude Code's own lock. Every other action is refused here, before anything
 * is read: Claude Code owns its tasks' moves, its config and its teammates.
 */

type Input = Record<string, unknown>;

function invalid(message: string, field: string): TeamkitError {
  return new TeamkitError('INVALID_INPUT', message, { details: { field } });
}

function text(input: Input, field: string, max: number, required: boolean): string | undefined {
  const value = input[field];
  if (value === undefined || value === null || value === '') {
    if (required) throw invalid(`Fill in "${field}".`, field);
    return undefined;
  }
  if (typeof value !== 'string') throw invalid(`"${field}" must be text.`, field);
  if (value.length > max) throw invalid(`"${field}" is longer than ${max} characters.`, field);
  return value;
}

function refuseFilled(input: Input, fields: readonly string[], why: string): void {
  for (const field of fields) {
    const value = input[field];
    const empty =
      value === undefined ||
      value === null ||
      value === '' ||
      (Array.isArray(value) && value.length === 0);
    if (!empty) throw invalid(why, field);
  }
}

/** Takes `action` on Claude Code team `team` through `writer`; refuses every other action. */
export async function runClaudeAction(
  writer: ClaudeTeamWriter,
  team: string,
  action: string,
  input: unknown,
): Promise<unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw invalid('An action takes a JSON object.', 'body');
  const fields = input as Input;
  if (action === 'send') {
    refuseFilled(
      fields,
      ['kind'],
      'Claude Code messages have no kind; send a plain message to one member.',
    );
    const summary = text(fields, 'summary', 200, false);
    return writer.sendMessage({
      team,
      to: text(fields, 'to', 200, true) as string,
      text: text(fields, 'body', 100_000, true) as string,
      ...(summary === undefined ? {} : { summary }),
    });
  }
  if (action === 'createTask') {
    refuseFilled(
      fields,
      ['blockedBy', 'role'],
      'A task for a Claude Code team takes a subject and a description only; dependencies and owners are set from inside Claude Code.',
    );
    const description = text(fields, 'description', 20_000, false);
    return writer.createTask({
      team,
      subject: text(fields, 'subject', 500, true) as string,
      ...(description === undefined ? {} : { description }),
    });
  }
  throw new TeamkitError(
    'INVALID_INPUT',
    `Teamkit takes two actions on a Claude Code team: a message and a new task. "${action}" is not one of them: Claude Code alone moves its tasks, edits its team and starts or stops its teammates.`,
    { details: { action } },
  );
}
