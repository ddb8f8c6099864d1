import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TeamkitErrorCode } from '../errors/index.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { loadTeamLibrary, resolveTeam } from './team-library.js';
import {
  agentFile,
  configJson,
  snapshotTree,
  teamPackage,
  writeTree,
} from './test-support/registry-fixture.js';

let root: string;
let cleanup: () => Promise<void>;
let home: string;
let project: string;
let teamsDir: string;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempFolder('teamkit-registry-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  teamsDir = path.join(project, '.teamkit', 'teams');
  await mkdir(teamsDir, { recursive: true });
  await mkdir(home, { recursive: true });
});
afterEach(async () => cleanup());

/** Loads with one project registration and checks: skipped with `code`, the rest loads, nothing written. */
async function expectSkipped(entry: unknown, code: TeamkitErrorCode, reason: RegExp) {
  await writeTree(project, { '.teamkit/config.json': configJson([entry, { id: 'solo' }]) });
  const before = await snapshotTree(root);
  const library = await loadTeamLibrary({ home, project, env: {} });
  expect(library.teams.map((t) => t.id)).toEqual(['solo', 'coding-team']);
  expect(library.skipped).toHaveLength(1);
  expect(library.skipped[0]?.code).toBe(code);
  expect(library.skipped[0]?.reason).toMatch(reason);
  expect(library.warnings.some((w) => w.topic === 'skipped' && w.code === code)).toBe(true);
  expect(await snapshotTree(root)).toEqual(before);
}

/** Writes a team folder `hostile` whose files are `files`, and expects it skipped. */
async function expectTeamSkipped(
  files: Record<string, string>,
  code: TeamkitErrorCode,
  reason: RegExp,
) {
  await writeTree(path.join(teamsDir, 'hostile'), files);
  await expectSkipped({ path: '@teams/hostile' }, code, reason);
}

const valid = teamPackage('', 'hostile');
const manifest = valid['/team.yaml'] ?? '';

describe('hostile input: traversal names', () => {
  for (const entry of ['@teams/..', '@teams/../../etc', '@teams/a/b', '@teams/', '@teams/..\\x']) {
    it(`refuses registration path ${JSON.stringify(entry)}`, async () => {
      await expectSkipped({ path: entry }, 'PATH_TRAVERSAL', /Refused team folder name/);
    });
  }

  it('refuses a relative project path that leaves the project folder', async () => {
    await writeTree(root, teamPackage('outside', 'hostile'));
    await expectSkipped({ path: '../../outside' }, 'PATH_TRAVERSAL', /leaves the project folder/);
  });

  it('refuses a relative project path that reaches outside through a symlink', async () => {
    await writeTree(root, teamPackage('outside', 'hostile'));
    await symlink(path.join(root, 'outside'), path.join(project, 'linked'));
    await expectSkipped({ path: '../linked' }, 'PATH_TRAVERSAL', /resolves through a symlink/);
  });

  it('still lets the global config use relative paths outside its folder', async () => {
    await writeTree(root, teamPackage('dotfiles/teams/mine', 'mine'));
    await writeTree(home, { 'config.json': configJson([{ path: '../dotfiles/teams/mine' }]) });
    const library = await loadTeamLibrary({ home, env: {} });
    expect(library.teams.map((t) => t.id)).toEqual(['mine']);
  });

  it('refuses a NUL byte in a registration path', async () => {
    await expectSkipped({ path: 'teams/a\u0000b' }, 'PATH_TRAVERSAL', /NUL byte/);
  });

  it('refuses a built-in id that tries to leave the templates folder', async () => {
    await writeTree(project, {
      '.teamkit/config.json': configJson([{ id: '../solo' }, { id: 'solo' }]),
    });
    const library = await loadTeamLibrary({ home, project, env: {} });
    expect(library.teams.map((t) => t.id)).toEqual(['solo', 'coding-team']);
    expect(library.warnings.map((w) => w.message).join('\n')).toMatch(
      /teams\[0\] was skipped: id: team name must be lowercase kebab-case/,
    );
  });

  it('refuses an agent file name that leaves the team folder', async () => {
    await writeTree(root, { 'secret.md': 'stolen prompt' });
    await expectTeamSkipped(
      {
        ...valid,
        '/team.yaml':
          'id: hostile\nlead: lead\nmembers:\n  - name: lead\n    agent: ../../../../secret.md\n',
      },
      'PATH_TRAVERSAL',
      /agent file of member "lead".*path separator/,
    );
  });

  it('refuses member names that are not plain names', async () => {
    await expectTeamSkipped(
      { '/team.yaml': 'id: hostile\nlead: "../x"\nmembers:\n  - name: "../x"\n' },
      'INVALID_TEAM',
      /members\.0\.name: member name must be lowercase kebab-case/,
    );
  });

  it('refuses team ids that are not plain names, from resolveTeam too', async () => {
    await expectTeamSkipped(
      { ...valid, '/team.yaml': manifest.replace('id: hostile', 'id: ../etc') },
      'INVALID_TEAM',
      /id: team name/,
    );
    const library = await loadTeamLibrary({ home, project, env: {} });
    expect(() => resolveTeam(library, '../etc')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});

describe('hostile input: symlinks', () => {
  it('refuses a team folder that is a symlink out of the source base', async () => {
    await writeTree(root, teamPackage('outside', 'hostile'));
    await symlink(path.join(root, 'outside'), path.join(teamsDir, 'hostile'));
    await expectSkipped({ path: '@teams/hostile' }, 'PATH_TRAVERSAL', /resolves through a symlink/);
  });

  it('refuses a teams folder that is itself a symlink out of the base', async () => {
    await writeTree(root, teamPackage('outside/hostile', 'hostile'));
    await mkdir(path.join(home, 'x'), { recursive: true });
    await symlink(path.join(root, 'outside'), path.join(home, 'teams'));
    await writeTree(home, { 'config.json': configJson([{ path: '@teams/hostile' }]) });
    const before = await snapshotTree(root);
    const library = await loadTeamLibrary({ home, env: {} });
    expect(library.teams).toEqual([]);
    expect(library.skipped.map((s) => s.code)).toEqual(['PATH_TRAVERSAL']);
    expect(await snapshotTree(root)).toEqual(before);
  });

  it('refuses an agent file that is a symlink out of its team folder', async () => {
    await writeTree(root, { 'outside.agent.md': agentFile('stolen') });
    await writeTree(path.join(teamsDir, 'hostile'), { ...valid, '/lead.agent.md': '' });
    const link = path.join(teamsDir, 'hostile', 'lead.agent.md');
    await import('node:fs/promises').then((fs) => fs.rm(link));
    await symlink(path.join(root, 'outside.agent.md'), link);
    await expectSkipped(
      { path: '@teams/hostile' },
      'PATH_TRAVERSAL',
      /lead\.agent\.md resolves through a symlink/,
    );
  });

  it('refuses a policy.yaml that is a symlink to a device', async () => {
    await writeTree(path.join(teamsDir, 'hostile'), valid);
    await symlink('/dev/zero', path.join(teamsDir, 'hostile', 'policy.yaml'));
    await expectSkipped({ path: '@teams/hostile' }, 'PATH_TRAVERSAL', /policy\.yaml/);
  });

  it('skips a team folder that is a symlink loop', async () => {
    await symlink(path.join(teamsDir, 'hostile'), path.join(teamsDir, 'hostile'));
    await expectSkipped({ path: '@teams/hostile' }, 'PATH_TRAVERSAL', /symlink loop/);
  });

  it('skips a team whose manifest is a symlink loop', async () => {
    await writeTree(path.join(teamsDir, 'hostile'), {
      '/lead.agent.md': valid['/lead.agent.md'] ?? '',
    });
    await symlink('team.yaml', path.join(teamsDir, 'hostile', 'team.yaml'));
    await expectSkipped({ path: '@teams/hostile' }, 'PATH_TRAVERSAL', /symlink loop/);
  });

  it('refuses a manifest that is a FIFO instead of blocking on it', async (context) => {
    await writeTree(path.join(teamsDir, 'hostile'), {
      '/lead.agent.md': valid['/lead.agent.md'] ?? '',
    });
    try {
      execFileSync('mkfifo', [path.join(teamsDir, 'hostile', 'team.yaml')]);
    } catch {
      console.log('skipped: mkfifo is not available on this machine');
      context.skip();
    }
    await expectSkipped(
      { path: '@teams/hostile' },
      'INVALID_TEAM',
      /team\.yaml is not a regular file/,
    );
  });
});

describe('hostile input: YAML', () => {
  const bomb = [
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  ].join('\n');

  it('refuses a billion-laughs alias bomb in team.yaml', async () => {
    await expectTeamSkipped(
      { ...valid, '/team.yaml': `${manifest}\n${bomb}\n` },
      'INVALID_TEAM',
      /cannot be expanded: .*alias/i,
    );
  });

  it('refuses an alias bomb in policy.yaml', async () => {
    await expectTeamSkipped(
      { ...valid, '/policy.yaml': `${bomb}\n` },
      'INVALID_TEAM',
      /policy\.yaml cannot be expanded/,
    );
  });

  it('allows a few anchors but refuses more aliases than the budget', async () => {
    const many = `x: &x 1\nlist: [${Array.from({ length: 30 }, () => '*x').join(', ')}]\n`;
    await expectTeamSkipped(
      { ...valid, '/lead.agent.md': `---\n${many}---\nPrompt.\n` },
      'INVALID_TEAM',
      /lead\.agent\.md \(front matter\) cannot be expanded/,
    );
  });

  for (const [name, text, reason] of [
    ['duplicate keys', `${manifest}\nid: other\n`, /not valid YAML: Map keys must be unique/],
    [
      'an unknown tag',
      `${manifest}\ndescription: !!js/function "return 1"\n`,
      /not valid YAML: .*tag/i,
    ],
    ['several documents', `${manifest}\n---\nid: second\n`, /not valid YAML: .*multiple documents/],
    ['a scalar root', 'just a string\n', /the manifest must be a mapping/],
    ['a list root', '- id: hostile\n', /the manifest must be a mapping/],
    ['a __proto__ key', `${manifest}\n__proto__: { polluted: true }\n`, /reserved key "__proto__"/],
    ['a merge key', `${manifest}\n<<: { description: merged }\n`, /Unrecognized key/],
  ] as const) {
    it(`refuses a manifest with ${name}`, async () => {
      await expectTeamSkipped({ ...valid, '/team.yaml': text }, 'INVALID_TEAM', reason);
    });
  }
});

describe('hostile input: encoding', () => {
  it('refuses a manifest that is not UTF-8', async () => {
    await writeTree(path.join(teamsDir, 'hostile'), valid);
    await writeFile(
      path.join(teamsDir, 'hostile', 'team.yaml'),
      Buffer.from([0x69, 0x64, 0x3a, 0x20, 0xff, 0xfe, 0x0a]),
    );
    await expectSkipped(
      { path: '@teams/hostile' },
      'INVALID_TEAM',
      /team\.yaml is not valid UTF-8/,
    );
  });
});

describe('hostile input: huge files', () => {
  const huge = 'x'.repeat(300 * 1024);
  it('refuses a huge team.yaml before parsing it', async () => {
    await expectTeamSkipped(
      { ...valid, '/team.yaml': `${manifest}\n# ${huge}\n` },
      'INVALID_TEAM',
      /team\.yaml is \d+ bytes; the limit is 262144 bytes/,
    );
  });

  it('refuses a huge agent file', async () => {
    await expectTeamSkipped(
      { ...valid, '/dev.agent.md': huge },
      'INVALID_TEAM',
      /dev\.agent\.md is \d+ bytes/,
    );
  });

  it('refuses a prompt over the prompt limit even under the file cap', async () => {
    await expectTeamSkipped(
      { ...valid, '/dev.agent.md': 'y'.repeat(150_000) },
      'INVALID_TEAM',
      /members\.1\.prompt/,
    );
  });

  it('skips a huge project config and keeps the global teams', async () => {
    await writeTree(project, { '.teamkit/config.json': `{"teams": [], "pad": "${huge}"}` });
    const before = await snapshotTree(root);
    const library = await loadTeamLibrary({ home, project, env: {} });
    expect(library.sources[0]?.status).toBe('invalid');
    expect(library.teams.map((t) => t.id)).toEqual(['coding-team']);
    expect(library.warnings[0]?.message).toMatch(/limit is 262144 bytes/);
    expect(await snapshotTree(root)).toEqual(before);
  });
});

describe('hostile input: wrong types', () => {
  it('refuses members that are not a list', async () => {
    await expectTeamSkipped(
      { ...valid, '/team.yaml': 'id: hostile\nlead: lead\nmembers: lead\n' },
      'INVALID_TEAM',
      /members: /,
    );
  });

  it('refuses a lead that is a number', async () => {
    await expectTeamSkipped(
      { ...valid, '/team.yaml': manifest.replace('lead: lead', 'lead: 42') },
      'INVALID_TEAM',
      /lead: /,
    );
  });

  it('refuses front matter of the wrong shape', async () => {
    await expectTeamSkipped(
      { ...valid, '/lead.agent.md': '---\n- a\n- b\n---\nPrompt\n' },
      'INVALID_TEAM',
      /front matter must be a mapping/,
    );
  });

  it('refuses front matter with the wrong types', async () => {
    await expectTeamSkipped(
      { ...valid, '/lead.agent.md': '---\nmode: boss\n---\nPrompt\n' },
      'INVALID_TEAM',
      /front matter mode/,
    );
  });

  it('refuses an unterminated front matter', async () => {
    await expectTeamSkipped(
      { ...valid, '/lead.agent.md': '---\nmodel: x\nPrompt\n' },
      'INVALID_TEAM',
      /no closing "---"/,
    );
  });

  it('refuses a flat config.json with the wrong types', async () => {
    await expectTeamSkipped(
      { '/config.json': '{"name": "hostile", "members": {"a": 1}}' },
      'INVALID_TEAM',
      /members: /,
    );
  });

  for (const [name, text, reason] of [
    ['a list root', '[]', /the root must be an object/],
    ['teams that is an object', '{"teams": {"id": "solo"}}', /"teams" must be a list/],
    ['settings that is a list', '{"settings": [1]}', /"settings" must be an object/],
    ['a newer version', '{"version": 2}', /version 2 is not supported/],
    ['duplicate keys', '{"teams": [], "teams": [{"id": "solo"}]}', /duplicate key "teams"/],
    ['a __proto__ key', '{"__proto__": {"teams": []}}', /reserved key "__proto__"/],
    ['an empty file', '', /it is empty|ValueExpected/],
  ] as const) {
    it(`skips a project config with ${name}`, async () => {
      await writeTree(home, { 'config.json': configJson([{ id: 'duo' }]) });
      await writeTree(project, { '.teamkit/config.json': text });
      const before = await snapshotTree(root);
      const library = await loadTeamLibrary({ home, project, env: {} });
      expect(library.teams.map((t) => t.id)).toEqual(['duo']);
      expect(library.sources[0]?.status).toBe('invalid');
      expect(library.warnings).toHaveLength(1);
      expect(library.warnings[0]?.code).toBe('INVALID_CONFIG');
      expect(library.warnings[0]?.message).toMatch(reason);
      expect(await snapshotTree(root)).toEqual(before);
    });
  }

  it('refuses a scope written by the user: scope comes from where the file is', async () => {
    await writeTree(project, {
      '.teamkit/config.json': JSON.stringify({
        teams: [{ id: 'solo', scope: 'global' }, { id: 'duo' }],
      }),
    });
    const library = await loadTeamLibrary({ home, project, env: {} });
    expect(library.teams.map((t) => [t.id, t.scope])).toEqual([
      ['duo', 'project'],
      ['coding-team', 'global'],
    ]);
    expect(library.warnings.map((w) => w.message).join('\n')).toMatch(
      /teams\[0\] was skipped: .*scope/,
    );
  });

  it('skips entries of the wrong type and keeps the valid ones', async () => {
    await writeTree(project, {
      '.teamkit/config.json': JSON.stringify({
        teams: [
          { id: 'solo', priority: 'high' },
          { path: 42 },
          'duo',
          { id: 'duo', enabled: 'yes' },
          { id: 'squad' },
        ],
      }),
    });
    const library = await loadTeamLibrary({ home, project, env: {} });
    expect(library.teams.map((t) => t.id)).toEqual(['squad', 'coding-team']);
    expect(library.warnings.filter((w) => w.code === 'INVALID_CONFIG')).toHaveLength(4);
  });
});

describe('hostile input: any @teams/ name', () => {
  it('never throws, never leaves teams/, never writes', async () => {
    const before = await snapshotTree(root);
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), async (name) => {
        await writeTree(project, {
          '.teamkit/config.json': configJson([{ path: `@teams/${name}` }]),
        });
        const library = await loadTeamLibrary({ home, project, env: {} });
        for (const team of library.teams) {
          if (team.scope === 'project') {
            expect(path.relative(teamsDir, team.folder).startsWith('..')).toBe(false);
          }
        }
        expect(
          library.skipped.every((s) => ['PATH_TRAVERSAL', 'INVALID_TEAM'].includes(s.code)),
        ).toBe(true);
      }),
      { numRuns: 60 },
    );
    const after = (await snapshotTree(root)).filter((line) => !line.includes('config.json'));
    expect(after).toEqual(before.filter((line) => !line.includes('config.json')));
  });
});

describe('hostile input: nesting deep enough to overflow a recursive parser', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('skips a project config nested 50,000 levels deep instead of crashing', async () => {
    await writeTree(home, { 'config.json': configJson([{ id: 'duo' }]) });
    await writeTree(project, { '.teamkit/config.json': `{"teams": ${deep(50_000)}}` });
    const before = await snapshotTree(root);
    const library = await loadTeamLibrary({ home, project, env: {} });
    expect(library.sources[0]?.status).toBe('invalid');
    expect(library.teams.map((t) => t.id)).toEqual(['duo']);
    expect(library.warnings[0]?.message).toMatch(/more than 64 levels deep \(at line 1, column/);
    expect(await snapshotTree(root)).toEqual(before);
  });

  it('counts only brackets outside strings and comments', async () => {
    const noise = `"${'['.repeat(100)}" // ${'{'.repeat(100)}\n/* ${'['.repeat(100)} */`;
    await writeTree(project, {
      '.teamkit/config.json': `{"settings": {"x": ${noise.split('\n')[0]}\n${noise.split('\n')[1]}}, "teams": [{"id": "solo"}]}`,
    });
    const library = await loadTeamLibrary({ home, project, env: {} });
    expect(library.teams.map((t) => t.id)).toContain('solo');
  });

  it('skips a flat team config.json nested too deeply', async () => {
    await expectTeamSkipped(
      { '/config.json': `{"name": "hostile", "members": ${deep(50_000)}}` },
      'INVALID_TEAM',
      /more than 64 levels deep/,
    );
  });

  for (const [name, text] of [
    ['flow sequences', `${manifest}\nextra: ${deep(50_000)}\n`],
    ['block sequences', `${manifest}\nextra:\n  ${'- '.repeat(50_000)}x\n`],
    ['flow mappings', `${manifest}\nextra: ${'{a: '.repeat(20_000)}1${'}'.repeat(20_000)}\n`],
  ] as const) {
    it(`skips a team.yaml with ${name} nested too deeply`, async () => {
      await expectTeamSkipped(
        { ...valid, '/team.yaml': text },
        'INVALID_TEAM',
        /nested too deeply/,
      );
    });
  }
});
