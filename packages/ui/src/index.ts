/**
 * `@teamkit/ui`: the web dashboard that `team ui` serves. A local server over Teamkit's
 * runs and Claude Code's own teams, and the bundled page (in `dist/web/`, found by the
 * server itself). What the server cannot do with team-core alone (stopping a run as
 * `team run stop` does) is passed in by its caller.
 */

export { type ClaudeRunSourceOptions, createClaudeRunSource } from './server/claude-run-source.js';
export type { AnyRunSource, LiveRunSource } from './server/live-run-source.js';
export type { RunActionContext } from './server/run-actions.js';
export { createTeamkitRunSource, type RunSource } from './server/run-source.js';
export { startUiServer, type UiServer, type UiServerOptions } from './server/ui-server.js';
