import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadTeamLibrary } from '@teamkit/team-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENV_READ_RULES, type ProjectableConfig, projectTeamsIntoConfig } from './config-hook.js';
import { createFakeOpenCodeClient } from './test-support/fake-opencode-client.js';
import { createPairTeamProject, type PairTeamProject } from './test-support/pair-team-project.js';
import { startPlugin } from './test-support/start-plugin.js';

let fixture: PairTeamProject;
const env = () => ({ HOME: fixture.root, TEAMKIT_HOME: fixture.home });
const library = () => loadTeamLibrary({ home: fixture.home, project: fixture.project, env: env() });

beforeEach(async () => {
  fixture = await createPairTeamProject();
});
afterEach(async () => {
  await fixture.cleanup();
});

describe('projectTeamsIntoConfig', () => {
  it('adds each lead as a primary agent and members as subagents named <team>-<member>', async () => {
    const config: ProjectableConfig = {};
    const report = projectTeamsIntoConfig(config, await library(), { defaultAgent: true });
    expect(report.agents).toEqual(
      expect.arrayContaining([
        'pair-lead',
        'pair-writer',
        'coding-team-lead',
        'coding-team-tester',
      ]),
    );
    const agents = config.agent as Record<string, Record<string, unknown>>;
    expect(agents['pair-lead']).toMatchObject({ mode: 'primary', description: 'Leads the pair.' });
    expect(agents['pair-writer']).toMatchObject({
      mode: 'subagent',
      description: 'Writes what the lead asks.',
    });
    expect(agents['pair-writer']?.prompt).toContain('You write.');
    expect(agents['pair-writer']?.prompt).toContain('## Team protocol');
    expect(agents['pair-writer']?.prompt).toContain('team_send_message');
    expect(agents['pair-lead']?.prompt).toContain('team_create');
    expect(report.leadAgent).toBe('pair-lead');
  });

  it('takes permissions from the team policy and denies reads of .env files', async () => {
    const config: ProjectableConfig = {};
    projectTeamsIntoConfig(config, await library(), { defaultAgent: true });
    const agents = config.agent as Record<string, { permission: Record<string, unknown> }>;
    expect(agents['pair-writer']?.permission).toEqual({
      bash: 'ask',
      webfetch: 'deny',
      read: ENV_READ_RULES,
    });
    expect(agents['pair-lead']?.permission).toEqual({ read: ENV_READ_RULES });
    expect(agents['coding-team-lead']?.permission).toMatchObject({ edit: 'deny', bash: 'ask' });
    expect(ENV_READ_RULES).toEqual({
      '*': 'allow',
      '*.env': 'deny',
      '*.env.*': 'deny',
      '*.env.example': 'allow',
    });
  });

  it('adds the /team-* commands routed to the default lead and makes it the default agent', async () => {
    const config: ProjectableConfig = {};
    const report = projectTeamsIntoConfig(config, await library(), { defaultAgent: true });
    expect(report.commands).toEqual([
      'team-run',
      'team-status',
      'team-board',
      'team-plan',
      'team-review',
    ]);
    const commands = config.command as Record<string, { agent: string; template: string }>;
    for (const command of Object.values(commands)) expect(command.agent).toBe('pair-lead');
    expect(commands['team-run']?.template).toContain('$ARGUMENTS');
    expect(config.default_agent).toBe('pair-lead');
  });

  it("never touches the user's own agents, commands or default agent", async () => {
    const mine = { prompt: 'my own writer' };
    const myCommand = { template: 'my status' };
    const config: ProjectableConfig = {
      agent: { 'pair-writer': mine },
      command: { 'team-status': myCommand },
      default_agent: 'build',
    };
    const report = projectTeamsIntoConfig(config, await library(), { defaultAgent: true });
    expect(config.agent?.['pair-writer']).toBe(mine);
    expect(mine).toEqual({ prompt: 'my own writer' });
    expect(config.command?.['team-status']).toBe(myCommand);
    expect(config.default_agent).toBe('build');
    expect(report.agents).not.toContain('pair-writer');
    expect(report.commands).not.toContain('team-status');
    expect(report.notes.map((note) => note.message).join('\n')).toContain('pair-writer');
  });

  it('leaves default_agent unset when defaultAgent is false', async () => {
    const config: ProjectableConfig = {};
    projectTeamsIntoConfig(config, await library(), { defaultAgent: false });
    expect(config.default_agent).toBeUndefined();
    expect(config.agent?.['pair-lead']).toBeDefined();
  });
});

describe('the config hook', () => {
  it('changes nothing and registers nothing when disabled', async () => {
    const client = createFakeOpenCodeClient();
    const hooks = await startPlugin(client, {
      home: fixture.home,
      project: fixture.project,
      options: { enabled: false },
    });
    expect(hooks).toEqual({});
    expect(client.calls).toEqual([]);
    expect(client.logs).toEqual([]);
  });

  it('registers the team tools', async () => {
    const hooks = await startPlugin(createFakeOpenCodeClient(), fixture);
    expect(Object.keys(hooks.tool ?? {}).sort()).toEqual(
      [
        'team_create',
        'team_list',
        'team_status',
        'team_delete',
        'team_send_message',
        'team_read_messages',
        'team_acknowledge',
        'team_task_create',
        'team_task_list',
        'team_task_get',
        'team_task_claim',
        'team_task_update',
        'team_shutdown_request',
        'team_approve_shutdown',
        'team_reject_shutdown',
        'team_artifact_put',
        'team_artifact_get',
        'team_artifact_list',
      ].sort(),
    );
  });

  it('says in one line which team did not load and what to do, and OpenCode still gets the healthy teams', async () => {
    const teamFile = join(fixture.project, '.teamkit', 'teams', 'pair', 'team.yaml');
    await writeFile(teamFile, 'id: [broken');
    const client = createFakeOpenCodeClient();
    const notices: string[] = [];
    const hooks = await startPlugin(client, fixture, notices);
    const config: Record<string, unknown> = {};
    await hooks.config?.(config);
    expect(Object.keys(config.agent as object)).toContain('coding-team-lead');
    expect(Object.keys(config.agent as object)).not.toContain('pair-lead');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^teamkit: team "[^"]*pair[^"]*" was not loaded \(\w+\): .*team\.yaml.*team doctor.*restart OpenCode$/,
    );
    expect(notices[0]).not.toContain('\n');
    const errors = client.logs.filter((log) => log.level === 'error');
    expect(errors.map((log) => log.message)).toEqual([notices[0]?.replace(/^teamkit: /, '')]);
  });

  it('starts even when every team file and config is broken', async () => {
    await writeFile(join(fixture.project, '.teamkit', 'teams', 'pair', 'team.yaml'), ':::');
    await mkdir(fixture.home, { recursive: true });
    await writeFile(join(fixture.home, 'config.json'), '{ not json');
    const client = createFakeOpenCodeClient();
    const notices: string[] = [];
    const hooks = await startPlugin(client, fixture, notices);
    const config: Record<string, unknown> = { agent: { mine: { prompt: 'x' } } };
    await expect(hooks.config?.(config)).resolves.toBeUndefined();
    expect(config).toEqual({ agent: { mine: { prompt: 'x' } } });
    expect(notices.some((line) => /a Teamkit config was not loaded.*config\.json/.test(line))).toBe(
      true,
    );
    expect(notices.some((line) => /team "[^"]*pair[^"]*" was not loaded/.test(line))).toBe(true);
    expect(notices.every((line) => !line.includes('\n') && line.endsWith('restart OpenCode'))).toBe(
      true,
    );
  });
});
