import type { ClaudeTask, ClaudeTaskStatus } from './claude-team-view.js';
import { definedFields, isPlainObject, unknownFields } from './plain-object.js';

/** The statuses Claude Code's task schema accepts. */
export const CLAUDE_TASK_STATUSES: readonly ClaudeTaskStatus[] = [
  'pending',
  'in_progress',
  'completed',
];

const TASK_FIELDS = new Set([
  'id',
  'subject',
  'description',
  'activeForm',
  'owner',
  'status',
  'blocks',
  'blockedBy',
  'metadata',
]);

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Checks a parsed task file against the schema Claude Code validates with. Claude Code
 * silently drops a task that fails it (a missing `description`, `blocks` or `blockedBy`
 * is enough), so such a file is reported with the reason instead of being shown.
 */
export function parseTask(
  value: unknown,
): { ok: true; task: ClaudeTask } | { ok: false; reason: string } {
  if (!isPlainObject(value)) return { ok: false, reason: 'not a JSON object' };
  const wrong: string[] = [];
  for (const field of ['id', 'subject', 'description'] as const) {
    if (typeof value[field] !== 'string') wrong.push(`${field} is not a string`);
  }
  for (const field of ['activeForm', 'owner'] as const) {
    if (value[field] !== undefined && typeof value[field] !== 'string') {
      wrong.push(`${field} is not a string`);
    }
  }
  if (!CLAUDE_TASK_STATUSES.includes(value.status as ClaudeTaskStatus)) {
    wrong.push(`status ${JSON.stringify(value.status)} is not pending, in_progress or completed`);
  }
  for (const field of ['blocks', 'blockedBy'] as const) {
    if (!isStringArray(value[field])) wrong.push(`${field} is not a list of task ids`);
  }
  if (value.metadata !== undefined && !isPlainObject(value.metadata)) {
    wrong.push('metadata is not an object');
  }
  if (wrong.length > 0) {
    return { ok: false, reason: `Claude Code ignores this task: ${wrong.join('; ')}` };
  }
  return {
    ok: true,
    task: {
      id: value.id as string,
      subject: value.subject as string,
      description: value.description as string,
      status: value.status as ClaudeTaskStatus,
      blocks: value.blocks as string[],
      blockedBy: value.blockedBy as string[],
      ...definedFields({
        activeForm: value.activeForm as string | undefined,
        owner: value.owner as string | undefined,
        metadata: value.metadata as Record<string, unknown> | undefined,
        extra: unknownFields(value, TASK_FIELDS),
      }),
    },
  };
}
