export type { FixtureGitOptions, TeamFixture, TeamFixtureOptions } from './create-team-fixture.js';
export { createTeamFixture } from './create-team-fixture.js';
