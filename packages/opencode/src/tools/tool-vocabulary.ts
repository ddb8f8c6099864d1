import type { TeamToolVocabulary } from '@teamkit/team-core';
import { createToolVocabulary } from '@teamkit/team-core/tools';
import { OPENCODE_TEAM_TOOLS, openCodeToolName } from './opencode-tool-names.js';

/**
 * How members in OpenCode reach their team: the plugin's `team_*` tools, worded from the
 * same definitions the tools are registered from, so the prompt never names a tool the
 * plugin does not have. The runtime and the agent projection put it into every prompt.
 */
export const OPENCODE_TOOL_VOCABULARY: TeamToolVocabulary = createToolVocabulary(
  OPENCODE_TEAM_TOOLS,
  openCodeToolName,
);
