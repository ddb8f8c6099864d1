import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { doctor, renderDoctorReport } from './doctor.js';
import {
  configJson,
  snapshotTree,
  teamPackage,
  writeTree,
} from './test-support/registry-fixture.js';

let root: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempFolder('teamkit-registry-'));
});
afterEach(async () => cleanup());

describe('doctor', () => {
  it('reports sources, effective teams, lead, shadows, skips, settings and refusals, and renders them', async () => {
    const home = path.join(root, 'home');
    const project = path.join(root, 'project');
    await writeTree(home, {
      'config.json': configJson([{ id: 'coding-team' }, { path: '@teams/alpha', priority: 3 }], {
        'lock.timeoutMs': 20_000,
      }),
      ...teamPackage('teams/alpha', 'alpha'),
    });
    await writeTree(project, {
      '.teamkit/config.json': configJson(
        [{ path: '@teams/alpha', priority: 1 }, { path: '@teams/broken' }],
        {
          'mailbox.broadcast': 'everyone',
          'paths.checks': false,
          'tmux.enabled': 'off',
          'tmux.colour': 'red',
        },
      ),
      ...teamPackage('.teamkit/teams/alpha', 'alpha', { members: ['chief', 'dev'] }),
      ...teamPackage('.teamkit/teams/broken', 'broken', { lead: 'ghost' }),
    });
    const before = await snapshotTree(root);
    const report = await doctor({ home, project, env: {} });
    expect(await snapshotTree(root)).toEqual(before);

    const projectFile = path.join(project, '.teamkit', 'config.json');
    const globalFile = path.join(home, 'config.json');
    expect(report.home).toBe(home);
    expect(report.project).toBe(project);
    expect(report.sources).toEqual([
      { scope: 'project', file: projectFile, status: 'loaded' },
      { scope: 'global', file: globalFile, status: 'loaded' },
    ]);
    expect(report.teams.map((t) => [t.id, t.scope, t.priority, t.lead])).toEqual([
      ['alpha', 'project', 1, 'chief'],
      ['coding-team', 'global', 0, 'lead'],
    ]);
    expect(report.defaultLead).toEqual({ teamId: 'alpha', member: 'chief', scope: 'project' });
    expect(report.shadows.map((s) => s.id)).toEqual(['alpha']);
    expect(report.skipped.map((s) => [s.entry, s.code])).toEqual([
      ['@teams/broken', 'INVALID_TEAM'],
    ]);
    expect(report.ignoredRedLine.map((i) => i.key)).toEqual(['mailbox.broadcast']);
    expect(report.unknownKeys.map((u) => u.key)).toEqual(['paths.checks', 'tmux.colour']);
    const setting = (key: string) => report.settings.find((s) => s.key === key);
    expect(setting('tmux.enabled')).toMatchObject({ value: 'off', source: 'project' });
    expect(setting('lock.timeoutMs')).toMatchObject({ value: 20_000, source: 'global' });
    expect(setting('mailbox.broadcast')).toMatchObject({ value: 'lead-only', source: 'default' });
    expect(setting('paths.checks')).toBeUndefined();

    const text = renderDoctorReport(report);
    const sectionOf = (title: string) => {
      const start = text.indexOf(`${title}\n`);
      expect(start, title).toBeGreaterThanOrEqual(0);
      const end = text.indexOf('\n\n', start);
      return text.slice(start, end === -1 ? undefined : end);
    };
    expect(text.startsWith(`Teamkit home: ${home}\nProject:      ${project}\n`)).toBe(true);
    expect(sectionOf('Sources')).toContain(`project ${projectFile} (loaded)`);
    expect(sectionOf('Teams (effective order)')).toMatch(
      /1\. alpha {2}scope=project priority=1 {2}lead=chief members=2[\s\S]*2\. coding-team {2}scope=global priority=0 built-in {2}lead=lead members=6/,
    );
    expect(text).toContain('Default lead: chief of alpha (project)');
    expect(sectionOf('Shadows')).toContain('project team "alpha" shadows global team "alpha"');
    expect(sectionOf('Skipped teams')).toMatch(
      /project "@teams\/broken": \[INVALID_TEAM\] .*lead "ghost"/,
    );
    expect(sectionOf('Settings')).toContain(`tmux.enabled = "off"  (project ${projectFile})`);
    expect(sectionOf('Settings')).toContain('mailbox.broadcast = "lead-only"  (default)');
    expect(sectionOf('Ignored red-line settings')).toContain('"mailbox.broadcast" = "everyone"');
    expect(sectionOf('Unknown setting keys')).toContain(`tmux.colour (project ${projectFile})`);
    expect(sectionOf('Unknown setting keys')).toContain(
      `paths.checks (project ${projectFile}): no longer read, path containment checks are always on`,
    );
    expect(sectionOf('Warnings')).toContain('none');
  });

  it('says when the global config is missing and the template is used', async () => {
    const home = path.join(root, 'empty-home');
    const text = renderDoctorReport(await doctor({ home, env: {} }));
    expect(text).toContain(
      `global  ${path.join(home, 'config.json')} (missing; packaged template used)`,
    );
    expect(text).toContain('Project:      (none)');
    expect(text).toContain('Default lead: lead of coding-team (global)');
  });

  it.skipIf(process.platform === 'win32')(
    'warns about a home, or its runtime folder, that other users can read or write',
    async () => {
      const home = path.join(root, 'shared-home');
      await mkdir(path.join(home, 'runtime'), { recursive: true });
      await chmod(home, 0o700);
      await chmod(path.join(home, 'runtime'), 0o700);
      const before = await snapshotTree(root);
      expect((await doctor({ home, env: {} })).homeAccess).toEqual([]);
      expect(renderDoctorReport(await doctor({ home, env: {} }))).toContain(
        'Home permissions\n  private to you',
      );

      await chmod(home, 0o755);
      await chmod(path.join(home, 'runtime'), 0o777);
      const report = await doctor({ home, env: {} });
      expect(
        report.homeAccess.map((finding) => [finding.path, finding.mode, finding.issue]),
      ).toEqual([
        [home, '0755', 'readable-by-others'],
        [path.join(home, 'runtime'), '0777', 'writable-by-others'],
      ]);
      expect(report.homeAccess[0]?.message).toContain(`chmod 700 ${home}`);
      expect(renderDoctorReport(report)).toMatch(/Home permissions\n {2}\[readable-by-others\]/);
      await chmod(home, 0o700);
      await chmod(path.join(home, 'runtime'), 0o700);
      expect(await snapshotTree(root)).toEqual(before);
    },
  );
});
