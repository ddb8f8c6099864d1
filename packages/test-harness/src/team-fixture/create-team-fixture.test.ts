import { execFileSync } from 'node:child_process';
import { access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isTeamkitError } from '@teamkit/team-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createTeamFixture, type TeamFixture } from './create-team-fixture.js';

const gitMissing = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
})();
if (gitMissing) console.warn('Skipping team fixture tests: git is not installed.');

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe.skipIf(gitMissing)('createTeamFixture', () => {
  const made: TeamFixture[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((fixture) => fixture.cleanup()));
  });

  it('makes a home and a git repository on main with one commit', async () => {
    const fixture = await createTeamFixture();
    made.push(fixture);

    expect(await readdir(fixture.home)).toEqual([]);
    expect(fixture.env).toEqual({ TEAMKIT_HOME: fixture.home });
    expect(fixture.project).toBeUndefined();
    expect((await fixture.git(['rev-parse', '--show-toplevel'])).trim()).toBe(fixture.repo);
    expect((await fixture.git(['branch', '--show-current'])).trim()).toBe('main');
    expect((await fixture.git(['rev-list', '--count', 'HEAD'])).trim()).toBe('1');
    expect((await fixture.git(['status', '--porcelain'])).trim()).toBe('');
    expect((await fixture.git(['config', 'user.email'])).trim()).toBe(
      'teamkit-test@example.invalid',
    );
  });

  it('makes the repository a project with .teamkit/ when asked', async () => {
    const fixture = await createTeamFixture({ project: true });
    made.push(fixture);

    expect(fixture.project).toBe(fixture.repo);
    expect((await stat(join(fixture.repo, '.teamkit'))).isDirectory()).toBe(true);
  });

  it('cleanup removes everything, twice without complaint', async () => {
    const fixture = await createTeamFixture({ project: true });
    await fixture.cleanup();
    await fixture.cleanup();

    expect(await exists(fixture.root)).toBe(false);
    expect(await exists(fixture.home)).toBe(false);
    expect(await exists(fixture.repo)).toBe(false);
  });

  it('is an async disposable', async () => {
    const fixture = await createTeamFixture();
    await fixture[Symbol.asyncDispose]();
    expect(await exists(fixture.root)).toBe(false);
  });

  it('reports a failed git command as GIT_FAILED', async () => {
    const fixture = await createTeamFixture();
    made.push(fixture);

    const error = await fixture.git(['rev-parse', 'no-such-ref']).catch((e: unknown) => e);
    expect(isTeamkitError(error, 'GIT_FAILED')).toBe(true);
  });
});
