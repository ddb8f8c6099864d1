import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as root from '../index.js';
import { BUILTIN_TEAM_IDS } from './builtin-teams.js';
import * as registry from './index.js';
import { templatesFolder } from './templates-folder.js';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

describe('templatesFolder', () => {
  it('points at the package templates from src, with every built-in team and the config', async () => {
    expect(templatesFolder()).toBe(path.join(packageRoot, 'templates') + path.sep);
    await access(path.join(templatesFolder(), 'config.json'));
    for (const id of BUILTIN_TEAM_IDS)
      await access(path.join(templatesFolder(), 'teams', id, 'team.yaml'));
  });

  it('points at the same folder from the built dist module', async () => {
    const built = path.join(packageRoot, 'dist', 'registry', 'templates-folder.js');
    await access(built).catch(() => {
      throw new Error(`${built} is missing: run the build before the tests (pnpm test does).`);
    });
    const module = (await import(built)) as { templatesFolder: () => string };
    expect(module.templatesFolder()).toBe(templatesFolder());
  });
});

describe('package entry point', () => {
  it('exports the registry API by name from /registry, and the everyday calls from the root', () => {
    for (const name of [
      'loadTeamLibrary',
      'resolveTeam',
      'ensureGlobalConfig',
      'resolveSettings',
      'SETTINGS',
      'doctor',
      'renderDoctorReport',
      'BUILTIN_TEAM_IDS',
    ]) {
      expect(registry, name).toHaveProperty(name);
    }
    for (const name of ['loadTeamLibrary', 'resolveTeam', 'resolveSettings', 'doctor']) {
      expect(root, name).toHaveProperty(name);
    }
  });
});
