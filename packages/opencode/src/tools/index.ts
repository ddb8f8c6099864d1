import type { ToolDefinition } from '@opencode-ai/plugin';
import type { PluginContext } from '../plugin-context.js';
import { createMessageTools } from './message-tools.js';
import { createShutdownTools } from './shutdown-tools.js';
import { createTaskTools } from './task-tools.js';
import { createTeamTools } from './team-tools.js';

/** Every `team_*` tool, bound to one plugin instance's context. */
export function createTeamkitTools(ctx: PluginContext): Record<string, ToolDefinition> {
  return {
    ...createTeamTools(ctx),
    ...createMessageTools(ctx),
    ...createTaskTools(ctx),
    ...createShutdownTools(ctx),
  };
}
