/**
 * `@teamkit/ui/testing`: helpers for tests that drive the dashboard, such as `team ui`'s own
 * end-to-end tests: Debian's Chromium through playwright-core (an optional peer dependency),
 * and Claude Code team files planted for the Claude Code source.
 */

export { chromiumMissing, launchChromium } from './chromium.js';
export { plantClaudeTeam } from './plant-claude-team.js';
