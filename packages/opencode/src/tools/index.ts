import type { ToolDefinition } from '@opencode-ai/plugin';
import type { PluginContext } from '../plugin-context.js';
import { OPENCODE_TEAM_TOOLS, openCodeToolName } from './opencode-tool-names.js';
import { projectTeamTool } from './project-team-tool.js';

/** Every `team_*` tool, projected from team-core's shared definitions and bound to one plugin instance. */
export function createTeamkitTools(ctx: PluginContext): Record<string, ToolDefinition> {
  return Object.fromEntries(
    OPENCODE_TEAM_TOOLS.map((teamTool) => [
      openCodeToolName(teamTool.name),
      projectTeamTool(ctx, teamTool),
    ]),
  );
}
