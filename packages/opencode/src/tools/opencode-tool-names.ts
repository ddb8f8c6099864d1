import { type AnyTeamTool, findTeamTool } from '@teamkit/team-core/tools';

/**
 * The team tools the plugin registers, by base name. The fourteen of the plugin's first
 * release keep their names (`team_<name>`); `acknowledge` joined when reading stopped
 * acknowledging by itself, and the artifact tools with artifacts. Mail reaches OpenCode
 * sessions when they are idle, so the plugin has no `wait_for_mail`.
 */
export const OPENCODE_TOOL_NAMES = [
  'create',
  'list',
  'status',
  'delete',
  'send_message',
  'read_messages',
  'acknowledge',
  'task_create',
  'task_list',
  'task_get',
  'task_claim',
  'task_update',
  'shutdown_request',
  'approve_shutdown',
  'reject_shutdown',
  'artifact_put',
  'artifact_get',
  'artifact_list',
] as const;

/** The name OpenCode shows the model for a team tool: `team_<name>`. */
export function openCodeToolName(name: string): string {
  return `team_${name}`;
}

/** The shared definitions of {@link OPENCODE_TOOL_NAMES}, in that order. */
export const OPENCODE_TEAM_TOOLS: readonly AnyTeamTool[] = OPENCODE_TOOL_NAMES.map((name) => {
  const tool = findTeamTool(name);
  if (tool === undefined) throw new Error(`team-core has no team tool "${name}"`);
  return tool;
});
