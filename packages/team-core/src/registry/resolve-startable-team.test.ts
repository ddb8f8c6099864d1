import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { loadSettings } from './config-sources.js';
import { resolveStartableTeam } from './resolve-startable-team.js';
import { loadTeamLibrary } from './team-library.js';
import {
  configJson,
  snapshotTree,
  teamPackage,
  writeTree,
} from './test-support/registry-fixture.js';

let root: string;
let cleanup: () => Promise<void>;
let home: string;
beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempFolder('teamkit-registry-'));
  home = path.join(root, 'home');
});
afterEach(async () => cleanup());

describe('resolveStartableTeam', () => {
  it('starts a built-in team the config does not list, but keeps it out of the library', async () => {
    const library = await loadTeamLibrary({ home, env: {} });
    expect(library.teams.map((team) => team.id)).toEqual(['coding-team']);
    const duo = await resolveStartableTeam(library, 'duo');
    expect(duo).toMatchObject({ id: 'duo', scope: 'builtin', spec: { lead: 'implementer' } });
    expect(duo.folder).toMatch(/templates[/\\]teams[/\\]duo$/);
  });

  it('lets a listed team with a built-in id win, and a disabled registration switch the id off', async () => {
    await writeTree(home, {
      'config.json': configJson([{ path: '@teams/duo' }, { id: 'solo', enabled: false }]),
      ...teamPackage('teams/duo', 'duo'),
    });
    const library = await loadTeamLibrary({ home, env: {} });
    expect(await resolveStartableTeam(library, 'duo')).toMatchObject({
      scope: 'global',
      spec: { lead: 'lead' },
    });
    const off = await resolveStartableTeam(library, 'solo').catch((error) => error);
    expect(isTeamkitError(off, 'TEAM_NOT_FOUND')).toBe(true);
    expect(off.message).toMatch(/Team "solo" is disabled in .*config\.json/);
  });

  it('names the enabled and the built-in teams for an unknown id', async () => {
    const library = await loadTeamLibrary({ home, env: {} });
    const error = await resolveStartableTeam(library, 'ghost').catch((caught) => caught);
    expect(isTeamkitError(error, 'TEAM_NOT_FOUND')).toBe(true);
    expect(error.message).toBe(
      'No team "ghost" (enabled teams: coding-team; built-in teams: coding-team, solo, duo, squad). Register a team folder in the Teamkit config to add one.',
    );
  });

  it('names a registered team that was skipped, with its reason, instead of hiding it', async () => {
    const files = teamPackage('teams/mine', 'mine');
    delete files['teams/mine/dev.agent.md'];
    await writeTree(home, {
      'config.json': configJson([{ id: 'coding-team' }, { path: '@teams/mine' }]),
      ...files,
    });
    const library = await loadTeamLibrary({ home, env: {} });
    expect(library.skipped.map((team) => team.id)).toEqual(['mine']);
    const error = await resolveStartableTeam(library, 'mine').catch((caught) => caught);
    expect(isTeamkitError(error, 'TEAM_NOT_FOUND')).toBe(true);
    expect(error.message).toContain('Team "mine" is registered but was skipped: INVALID_TEAM in');
    expect(error.message).toContain('dev.agent.md');
    expect(error.details.skipped).toMatchObject([
      { id: 'mine', code: 'INVALID_TEAM', reason: expect.stringContaining('dev.agent.md') },
    ]);
    expect(error.details.suggestion).toBeUndefined();

    const typo = await resolveStartableTeam(library, 'coding-tem').catch((caught) => caught);
    expect(typo.message).toContain('Did you mean "coding-team"?');
    expect(typo.message).toContain('Skipped teams: "mine" (INVALID_TEAM: ');
    expect(typo.details).toMatchObject({ suggestion: 'coding-team', skipped: [{ id: 'mine' }] });

    const near = await resolveStartableTeam(library, 'mines').catch((caught) => caught);
    expect(near.details.suggestion).toBe('mine');
  });
});

describe('loadSettings', () => {
  it('layers the global and project settings without reading any team, and writes nothing', async () => {
    const project = path.join(root, 'project');
    await writeTree(home, {
      'config.json': configJson([{ path: '@teams/missing' }], { 'lock.timeoutMs': 1_000 }),
    });
    await writeTree(project, {
      '.teamkit/config.json': configJson([], { 'tmux.enabled': 'off', 'paths.checks': false }),
    });
    const before = await snapshotTree(root);
    const settings = await loadSettings({ home, project, env: {} });
    expect(settings.values).toMatchObject({ 'lock.timeoutMs': 1_000, 'tmux.enabled': 'off' });
    expect(settings.unknownKeys).toMatchObject([
      { key: 'paths.checks', retired: expect.any(String) },
    ]);
    expect(await snapshotTree(root)).toEqual(before);
  });
});
