import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { ensureGlobalConfig } from './ensure-global-config.js';
import { MemberIdRegistry } from './member-id-registry.js';
import { loadTeamLibrary, resolveTeam, type TeamLibrary } from './team-library.js';
import { parseTeamFolder } from './team-package.js';
import { templatesFolder } from './templates-folder.js';
import {
  agentFile,
  configJson,
  snapshotTree,
  teamPackage,
  writeTree,
} from './test-support/registry-fixture.js';
import { validateTeam } from './validate-team.js';

let root: string;
let cleanup: () => Promise<void>;
let home: string;
let project: string;
const env = {};

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempFolder('teamkit-registry-'));
  home = path.join(root, 'home', '.teamkit');
  project = path.join(root, 'project');
  await mkdir(project, { recursive: true });
});
afterEach(async () => cleanup());

const load = (withProject = true) =>
  loadTeamLibrary({ home, ...(withProject ? { project } : {}), env });
const ids = (library: TeamLibrary) => library.teams.map((team) => `${team.scope}:${team.id}`);

describe('loadTeamLibrary: sources', () => {
  it('without any config uses the packaged template in memory and writes nothing', async () => {
    const before = await snapshotTree(root);
    const library = await load(false);
    expect(ids(library)).toEqual(['global:coding-team']);
    expect(library.sources).toEqual([
      { scope: 'global', file: path.join(home, 'config.json'), status: 'template' },
    ]);
    expect(library.defaultLead).toEqual({ teamId: 'coding-team', member: 'lead', scope: 'global' });
    expect(library.warnings).toEqual([]);
    expect(await snapshotTree(root)).toEqual(before);
  });

  it('with a project folder but no project config behaves exactly like global only', async () => {
    await writeTree(home, {
      'config.json': configJson([{ path: '@teams/alpha' }, { id: 'solo', priority: 1 }], {
        'lock.timeoutMs': 20_000,
      }),
      ...teamPackage('teams/alpha', 'alpha'),
    });
    const withProject = await load(true);
    const globalOnly = await load(false);
    expect(withProject.sources.map((s) => [s.scope, s.status])).toEqual([
      ['project', 'missing'],
      ['global', 'loaded'],
    ]);
    const strip = (library: TeamLibrary) => ({
      ...library,
      project: undefined,
      sources: undefined,
    });
    expect(strip(withProject)).toEqual(strip(globalOnly));
    expect(ids(withProject)).toEqual(['global:alpha', 'global:solo']);
  });

  it('skips an unparsable project config with a warning and keeps the global teams and settings', async () => {
    await writeTree(home, {
      'config.json': configJson([{ id: 'duo' }], { 'tmux.enabled': 'off' }),
    });
    await writeTree(project, { '.teamkit/config.json': '{ "teams": [ { "id": "solo" ' });
    const library = await load();
    expect(ids(library)).toEqual(['global:duo']);
    expect(library.sources[0]).toMatchObject({ scope: 'project', status: 'invalid' });
    const warning = library.warnings.find((w) => w.code === 'INVALID_CONFIG');
    expect(warning?.file).toBe(path.join(project, '.teamkit', 'config.json'));
    expect(warning?.message).toMatch(/project config .*config\.json was skipped: .*line 1/);
    expect(library.settings.values['tmux.enabled']).toBe('off');
  });

  it('reads JSONC: commented-out entries and keys are not live, trailing commas are fine', async () => {
    await writeTree(project, {
      '.teamkit/config.json': `{
        // { "id": "duo" } is switched off for now
        "teams": [
          { "id": "solo", "priority": 0 }, /* { "id": "squad" }, */
        ],
        "settings": {
          // "mailbox.broadcast": "everyone",
          "lock.timeoutMs": 500,
        },
      }`,
    });
    const library = await load();
    expect(ids(library)).toEqual(['project:solo', 'global:coding-team']);
    expect(library.settings.values['lock.timeoutMs']).toBe(500);
    expect(library.settings.values['mailbox.broadcast']).toBe('lead-only');
    expect(library.settings.ignoredRedLine).toEqual([]);
  });

  it('skips a single bad entry (both id and path) but keeps the rest of the file', async () => {
    await writeTree(project, {
      '.teamkit/config.json': configJson([{ id: 'solo', path: '@teams/x' }, { id: 'duo' }]),
    });
    const library = await load();
    expect(ids(library)).toEqual(['project:duo', 'global:coding-team']);
    expect(library.warnings.map((w) => w.message).join('\n')).toMatch(
      /teams\[0\] was skipped: an entry has exactly one of "id" or "path"/,
    );
  });
});

describe('loadTeamLibrary: precedence', () => {
  it('lets a project team shadow the global team with the same id, and reports it', async () => {
    await writeTree(home, {
      'config.json': configJson([{ path: '@teams/alpha' }]),
      ...teamPackage('teams/alpha', 'alpha', { members: ['boss', 'dev'] }),
    });
    await writeTree(project, {
      '.teamkit/config.json': configJson([{ path: '@teams/alpha' }]),
      ...teamPackage('.teamkit/teams/alpha', 'alpha', { members: ['chief', 'dev'] }),
    });
    const library = await load();
    expect(ids(library)).toEqual(['project:alpha']);
    expect(library.teams[0]?.spec.lead).toBe('chief');
    expect(library.shadows).toHaveLength(1);
    expect(library.shadows[0]?.message).toContain(
      'project team "alpha" shadows global team "alpha"',
    );
    expect(library.shadows[0]?.shadowed.folder).toBe(path.join(home, 'teams', 'alpha'));
    expect(library.defaultLead).toEqual({ teamId: 'alpha', member: 'chief', scope: 'project' });
  });

  it('reports no shadow when both configs register the same folder', async () => {
    await writeTree(home, {
      'config.json': configJson([{ id: 'coding-team' }, { path: '@teams/alpha' }]),
      ...teamPackage('teams/alpha', 'alpha'),
    });
    await writeTree(project, {
      '.teamkit/config.json': configJson([
        { id: 'coding-team' },
        { path: path.join(home, 'teams', 'alpha') },
      ]),
    });
    const library = await load();
    expect(ids(library)).toEqual(['project:coding-team', 'project:alpha']);
    expect(library.shadows).toEqual([]);
    expect(library.warnings).toEqual([]);
  });

  it('puts a project team with priority 1 before a global team with priority 0', async () => {
    await writeTree(home, {
      'config.json': configJson([{ path: '@teams/g', priority: 0 }]),
      ...teamPackage('teams/g', 'global-team'),
    });
    await writeTree(project, {
      '.teamkit/config.json': configJson([{ path: '@teams/p', priority: 1 }]),
      ...teamPackage('.teamkit/teams/p', 'project-team', { members: ['pm', 'dev'] }),
    });
    const library = await load();
    expect(ids(library)).toEqual(['project:project-team', 'global:global-team']);
    expect(library.teams.map((t) => t.priority)).toEqual([1, 0]);
    expect(library.defaultLead?.teamId).toBe('project-team');
  });

  it('orders within a source by priority, then declaration order', async () => {
    await writeTree(project, {
      '.teamkit/config.json': configJson([
        { path: '@teams/a', priority: 2 },
        { path: '@teams/b', priority: -1 },
        { path: '@teams/c', priority: 2 },
        { path: '@teams/d', priority: -1 },
      ]),
      ...teamPackage('.teamkit/teams/a', 'team-a'),
      ...teamPackage('.teamkit/teams/b', 'team-b'),
      ...teamPackage('.teamkit/teams/c', 'team-c'),
      ...teamPackage('.teamkit/teams/d', 'team-d'),
    });
    const library = await load();
    expect(ids(library)).toEqual([
      'project:team-b',
      'project:team-d',
      'project:team-a',
      'project:team-c',
      'global:coding-team',
    ]);
    expect(library.teams.map((t) => t.declarationOrder).slice(0, 4)).toEqual([1, 3, 0, 2]);
  });

  it('takes the default lead from the first enabled team with a usable lead', async () => {
    await writeTree(project, {
      '.teamkit/config.json': configJson([
        { path: '@teams/off', enabled: false },
        { path: '@teams/sub' },
        { path: '@teams/ok' },
      ]),
      ...teamPackage('.teamkit/teams/off', 'off-team'),
      ...teamPackage('.teamkit/teams/sub', 'sub-team'),
      '.teamkit/teams/sub/lead.agent.md': '---\nmode: subagent\n---\nI only help.\n',
      ...teamPackage('.teamkit/teams/ok', 'ok-team', { members: ['captain', 'dev'] }),
    });
    const library = await load();
    expect(ids(library).slice(0, 3)).toEqual([
      'project:off-team',
      'project:sub-team',
      'project:ok-team',
    ]);
    expect(library.teams[0]?.enabled).toBe(false);
    expect(library.defaultLead).toEqual({ teamId: 'ok-team', member: 'captain', scope: 'project' });
  });

  it('lets a disabled project registration shadow the global team of the same id', async () => {
    await writeTree(project, {
      '.teamkit/config.json': configJson([{ id: 'coding-team', enabled: false }, { id: 'solo' }]),
    });
    const library = await load();
    expect(ids(library)).toEqual(['project:coding-team', 'project:solo']);
    expect(library.teams[0]?.enabled).toBe(false);
    // The same built-in folder from both configs is one team, not a shadow of itself.
    expect(library.shadows).toEqual([]);
    expect(library.warnings).toEqual([]);
    expect(library.defaultLead).toEqual({
      teamId: 'solo',
      member: 'implementer',
      scope: 'project',
    });
  });
});

describe('loadTeamLibrary: registrations', () => {
  it('resolves @teams/ against the folder holding each config file, in both scopes', async () => {
    await writeTree(home, {
      'config.json': configJson([{ path: '@teams/shared' }]),
      ...teamPackage('teams/shared', 'shared'),
    });
    await writeTree(project, {
      '.teamkit/config.json': configJson([{ path: '@teams/local' }]),
      ...teamPackage('.teamkit/teams/local', 'local'),
      ...teamPackage('teams/shared', 'decoy'),
    });
    const library = await load();
    expect(library.teams.map((t) => [t.id, t.scope, t.folder])).toEqual([
      ['local', 'project', path.join(project, '.teamkit', 'teams', 'local')],
      ['shared', 'global', path.join(home, 'teams', 'shared')],
    ]);
    expect(library.teams.map((t) => t.source)).toEqual([
      path.join(project, '.teamkit', 'config.json'),
      path.join(home, 'config.json'),
    ]);
  });

  it('resolves relative, ~ and absolute paths', async () => {
    const userHome = path.join(root, 'user');
    await writeTree(root, {
      ...teamPackage('user/my-teams/tilde', 'tilde'),
      ...teamPackage('elsewhere/abs', 'absolute'),
      ...teamPackage('project/team-folders/rel', 'relative'),
    });
    await writeTree(project, {
      '.teamkit/config.json': configJson([
        { path: '../team-folders/rel' },
        { path: '~/my-teams/tilde' },
        { path: path.join(root, 'elsewhere', 'abs') },
      ]),
    });
    const library = await loadTeamLibrary({ home, project, env: { HOME: userHome } });
    expect(library.teams.map((t) => t.id)).toEqual([
      'relative',
      'tilde',
      'absolute',
      'coding-team',
    ]);
    expect(library.skipped).toEqual([]);
  });

  it('reads TEAMKIT_HOME from the injected env, not from the process', async () => {
    await writeTree(home, { 'config.json': configJson([{ id: 'squad' }]) });
    const library = await loadTeamLibrary({ env: { TEAMKIT_HOME: home } });
    expect(library.home).toBe(home);
    expect(ids(library)).toEqual(['global:squad']);
  });

  it('loads the built-in teams through the same pipeline as file teams', async () => {
    await writeTree(project, {
      '.teamkit/config.json': configJson([
        { id: 'coding-team' },
        { id: 'solo' },
        { id: 'duo' },
        { id: 'squad' },
      ]),
    });
    const library = await load();
    expect(library.warnings.filter((w) => w.topic !== 'shadow')).toEqual([]);
    expect(
      library.teams
        .filter((t) => t.scope === 'project')
        .map((t) => [t.id, t.spec.members.map((m) => m.name)]),
    ).toEqual([
      ['coding-team', ['lead', 'architect', 'implementer', 'reviewer', 'tester', 'researcher']],
      ['solo', ['implementer']],
      ['duo', ['implementer', 'reviewer']],
      ['squad', ['lead', 'implementer-1', 'implementer-2', 'reviewer', 'tester']],
    ]);
    expect(library.teams.every((t) => t.builtin)).toBe(true);
    const direct = await parseTeamFolder(path.join(templatesFolder(), 'teams', 'coding-team'));
    expect(library.teams[0]?.spec.members.map((m) => m.prompt)).toEqual(
      direct.members.map((m) => m.prompt),
    );
  });

  it('gives the coding-team lead a plan-first, routing and evidence prompt', async () => {
    const library = await load(false);
    const team = resolveTeam(library, 'coding-team');
    const lead = team.spec.members.find((m) => m.name === team.spec.lead);
    for (const phrase of [
      'acceptance criteria',
      'two or more dispatches',
      'implementer → tester → reviewer',
      'architect first',
      'researcher first',
      'STATUS',
      'CHANGES',
      'FINDINGS',
      'EVIDENCE',
      'HANDOFF',
    ]) {
      expect(lead?.prompt).toContain(phrase);
    }
    for (const member of team.spec.members) {
      expect(member.prompt.length).toBeGreaterThan(400);
      expect(member.prompt).toContain('HANDOFF');
    }
    expect(team.spec.policy.review).toBe('required');
  });

  it('skips an unknown built-in id with TEAM_NOT_FOUND', async () => {
    await writeTree(project, { '.teamkit/config.json': configJson([{ id: 'nope' }]) });
    const library = await load();
    expect(library.skipped).toMatchObject([{ entry: 'nope', code: 'TEAM_NOT_FOUND' }]);
    expect(library.skipped[0]?.reason).toContain('built-ins: coding-team, solo, duo, squad');
  });
});

describe('loadTeamLibrary: invalid teams', () => {
  const cases: Array<{
    name: string;
    files: Record<string, string>;
    file: string;
    reason: RegExp;
  }> = [
    {
      name: 'missing manifest',
      files: { 'lead.agent.md': agentFile('lead') },
      file: '',
      reason: /missing manifest \(expected team\.yaml or a flat config\.json\)/,
    },
    {
      name: 'no agent files',
      files: { 'team.yaml': 'id: broken\nlead: lead\nmembers:\n  - name: lead\n  - name: dev\n' },
      file: 'team.yaml',
      reason: /no agent files: expected .*lead\.agent\.md, .*dev\.agent\.md/,
    },
    {
      name: 'one member without an agent file',
      files: {
        'team.yaml': 'id: broken\nlead: lead\nmembers:\n  - name: lead\n  - name: dev\n',
        'lead.agent.md': agentFile('lead'),
      },
      file: 'team.yaml',
      reason: /member "dev" has no agent file \(expected .*dev\.agent\.md\) and no inline prompt/,
    },
    {
      name: 'lead that is not a member',
      files: teamPackage('', 'broken', { lead: 'ghost' }),
      file: 'team.yaml',
      reason: /lead "ghost" is not a member of the team \(members: lead, dev\)/,
    },
    {
      name: 'duplicate member names',
      files: teamPackage('', 'broken', { members: ['lead', 'dev', 'dev'] }),
      file: 'team.yaml',
      reason: /duplicate member name "dev"/,
    },
    {
      name: 'limits exceeded',
      files: {
        ...teamPackage('', 'broken', { members: ['lead', 'a', 'b'] }),
        'policy.yaml': 'bounds:\n  maxMembers: 2\n  maxParallelMembers: 2\n',
      },
      file: 'team.yaml',
      reason: /limits exceeded: 3 members, but the policy allows maxMembers=2/,
    },
    {
      name: 'a bad policy',
      files: { ...teamPackage('', 'broken'), 'policy.yaml': 'broadcast: sometimes\n' },
      file: 'policy.yaml',
      reason: /policy\.yaml: broadcast: /,
    },
    {
      name: 'an unknown manifest key',
      files: teamPackage('', 'broken', { extraManifest: 'leader: lead' }),
      file: 'team.yaml',
      reason: /Unrecognized key.*leader/,
    },
  ];

  for (const testCase of cases) {
    it(`skips a team with ${testCase.name}, names the file and the reason, keeps the rest`, async () => {
      const files = Object.fromEntries(
        Object.entries(testCase.files).map(([k, v]) => [
          path.join('.teamkit/teams/broken', k.replace(/^\//, '')),
          v,
        ]),
      );
      await writeTree(project, {
        '.teamkit/config.json': configJson([{ path: '@teams/broken' }, { id: 'solo' }]),
        ...files,
      });
      const before = await snapshotTree(root);
      const library = await load();
      expect(ids(library)).toEqual(['project:solo', 'global:coding-team']);
      expect(library.skipped).toHaveLength(1);
      const skipped = library.skipped[0];
      const folder = path.join(project, '.teamkit', 'teams', 'broken');
      expect(skipped?.code).toBe('INVALID_TEAM');
      expect(skipped?.file).toBe(testCase.file === '' ? folder : path.join(folder, testCase.file));
      expect(skipped?.reason).toMatch(testCase.reason);
      const warning = library.warnings.find((w) => w.topic === 'skipped');
      expect(warning?.message).toContain('skipped project team "@teams/broken"');
      expect(warning?.message).toMatch(testCase.reason);
      expect(await snapshotTree(root)).toEqual(before);
    });
  }

  it('rolls back member ids of a rejected team so a later team with them still loads', async () => {
    await writeTree(project, {
      '.teamkit/config.json': configJson([{ path: '@teams/alpha' }]),
      ...teamPackage('.teamkit/teams/alpha', 'alpha', { lead: 'ghost' }),
    });
    await writeTree(home, {
      'config.json': configJson([{ path: '@teams/alpha' }]),
      ...teamPackage('teams/alpha', 'alpha'),
    });
    const library = await load();
    expect(ids(library)).toEqual(['global:alpha']);
    expect(library.shadows).toEqual([]);
    expect(library.skipped.map((s) => [s.scope, s.reason])).toEqual([
      ['project', expect.stringContaining('lead "ghost" is not a member')],
    ]);
  });

  it('validateTeam leaves no member ids registered when it rejects a team', async () => {
    await writeTree(root, {
      ...teamPackage('bad', 'alpha', { lead: 'ghost' }),
      ...teamPackage('good', 'alpha'),
    });
    const registry = new MemberIdRegistry();
    const bad = await parseTeamFolder(path.join(root, 'bad'));
    expect(() => validateTeam(bad, registry)).toThrow(/lead "ghost"/);
    expect([...registry.entries.keys()]).toEqual([]);
    const good = validateTeam(await parseTeamFolder(path.join(root, 'good')), registry);
    good.memberIds.commit();
    expect([...registry.entries.keys()]).toEqual(['alpha/lead', 'alpha/dev']);
    const again = await parseTeamFolder(path.join(root, 'good'));
    expect(() => validateTeam(again, registry)).toThrow(
      /member id "alpha\/lead" is already registered by .*good.team\.yaml/,
    );
    expect([...registry.entries.keys()]).toEqual(['alpha/lead', 'alpha/dev']);
  });
});

describe('resolveTeam', () => {
  it('finds an enabled team and refuses unknown, disabled and malformed ids with typed errors', async () => {
    await writeTree(project, {
      '.teamkit/config.json': configJson([{ id: 'solo' }, { id: 'duo', enabled: false }]),
    });
    const library = await load();
    expect(resolveTeam(library, 'solo').spec.lead).toBe('implementer');
    const unknown = (() => {
      try {
        resolveTeam(library, 'ghost');
      } catch (error) {
        return error;
      }
    })();
    expect(isTeamkitError(unknown, 'TEAM_NOT_FOUND')).toBe(true);
    expect((unknown as Error).message).toBe('No team "ghost" (known teams: solo, coding-team).');
    expect(() => resolveTeam(library, 'sol')).toThrow(
      'No team "sol" (known teams: solo, coding-team). Did you mean "solo"?',
    );
    expect(() => resolveTeam(library, 'duo')).toThrow(/Team "duo" is disabled in .*config\.json/);
    for (const bad of ['../solo', '', 'Solo', 'a/b']) {
      expect(() => resolveTeam(library, bad)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
  });
});

describe('ensureGlobalConfig', () => {
  it('creates the global config from the template once and never overwrites it', async () => {
    const first = await ensureGlobalConfig({ home, env });
    expect(first).toEqual({ path: path.join(home, 'config.json'), created: true });
    const template = await readFile(path.join(templatesFolder(), 'config.json'), 'utf8');
    expect(await readFile(first.path, 'utf8')).toBe(template);
    await writeFile(first.path, configJson([{ id: 'solo' }]));
    expect(await ensureGlobalConfig({ home, env })).toEqual({ path: first.path, created: false });
    expect(await readFile(first.path, 'utf8')).toBe(configJson([{ id: 'solo' }]));
    expect(ids(await load(false))).toEqual(['global:solo']);
  });

  it('lets exactly one of several concurrent callers create it', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => ensureGlobalConfig({ home, env })),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await snapshotTree(home)).toEqual([expect.stringMatching(/^file config\.json /)]);
  });

  it('leaves a project without config untouched', async () => {
    await ensureGlobalConfig({ home, env });
    const before = await snapshotTree(project);
    await load();
    expect(await snapshotTree(project)).toEqual(before);
    expect(before).toEqual([]);
  });
});

describe('team folders', () => {
  it('reads a flat config.json team with the same loader', async () => {
    await writeTree(project, {
      '.teamkit/config.json': configJson([{ path: '@teams/flat' }]),
      '.teamkit/teams/flat/config.json': JSON.stringify({
        name: 'flat-team',
        description: 'older shape',
        leadAgentId: 'boss',
        members: [
          { name: 'boss', kind: 'subagent_type', subagent_type: 'planner', prompt: 'Plan it.' },
          { name: 'worker', kind: 'category', category: 'quick', prompt: 'Do it.' },
        ],
      }),
    });
    const library = await load();
    const team = resolveTeam(library, 'flat-team');
    expect(team.spec).toMatchObject({
      id: 'flat-team',
      description: 'older shape',
      lead: 'boss',
      members: [
        { name: 'boss', role: 'planner', prompt: 'Plan it.' },
        { name: 'worker', role: 'quick', prompt: 'Do it.' },
      ],
    });
  });

  it('lets agent front matter override manifest member fields and uses the body as prompt', async () => {
    await writeTree(root, {
      'team/team.yaml':
        'id: t\nlead: lead\nmembers:\n  - name: lead\n    model: manifest/model\n    description: from manifest\n    worktree: true\n    colour: red\n',
      'team/lead.agent.md':
        '---\nmodel: agent/model\ntools: [read, grep]\ntemperature: 0.2\n---\n\nLead the team.\n',
      'team/TEAM.md': '# Notes\n',
    });
    const parsed = await parseTeamFolder(path.join(root, 'team'));
    expect(parsed.members[0]).toEqual({
      name: 'lead',
      role: 'lead',
      description: 'from manifest',
      prompt: 'Lead the team.',
      model: 'agent/model',
      color: 'red',
      worktree: true,
      tmux: true,
      tools: { read: true, grep: true },
      agentFile: 'lead.agent.md',
    });
    expect(parsed.teamDoc).toBe('# Notes\n');
    expect(parsed.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('"temperature" are not used by Teamkit'),
    ]);
  });

  it('accepts an inline prompt when a member has no agent file, and warns about stray agent files', async () => {
    await writeTree(root, {
      'team/team.yaml': 'id: t\nmembers:\n  - name: solo\n    prompt: Work alone.\n',
      'team/other.agent.md': agentFile('nobody'),
    });
    const parsed = await parseTeamFolder(path.join(root, 'team'));
    expect(parsed.lead).toBe('solo');
    expect(parsed.members[0]?.prompt).toBe('Work alone.');
    expect(parsed.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('other.agent.md belongs to no member'),
    ]);
  });

  it('warns when policy tool permissions name a role no member has', async () => {
    await writeTree(root, {
      ...teamPackage('team', 't'),
      'team/policy.yaml': 'toolPermissions:\n  dev:\n    bash: deny\n  tester:\n    edit: deny\n',
    });
    const parsed = await parseTeamFolder(path.join(root, 'team'));
    expect(parsed.policy.toolPermissions).toEqual({
      dev: { bash: 'deny' },
      tester: { edit: 'deny' },
    });
    expect(parsed.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /policy\.yaml: toolPermissions names role "tester", which no member of "t" has \(roles: lead, dev\)/,
      ),
    ]);
  });

  it('refuses a symlinked team folder that leaves the source base', async () => {
    await writeTree(root, teamPackage('outside/evil', 'evil'));
    await mkdir(path.join(project, '.teamkit', 'teams'), { recursive: true });
    await symlink(
      path.join(root, 'outside', 'evil'),
      path.join(project, '.teamkit', 'teams', 'evil'),
    );
    await writeTree(project, { '.teamkit/config.json': configJson([{ path: '@teams/evil' }]) });
    const library = await load();
    expect(library.teams.map((t) => t.id)).toEqual(['coding-team']);
    expect(library.skipped).toMatchObject([{ code: 'PATH_TRAVERSAL', entry: '@teams/evil' }]);
  });
});
