import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  findToolResults,
  type MockModelRequest,
  type MockModelServer,
  type MockTurn,
  messageText,
  startMockModelServer,
} from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePairTeam } from './test-support/pair-team-project.js';
import {
  describeResult,
  findOpencodeBinary,
  killRunningOpencode,
  markPluginDependencyInstalled,
  mockProviderConfig,
  offlineEnv,
  PROCESS_TIMEOUT_MS,
  runOpencode,
} from './test-support/real-opencode.js';

// The built plugin in the real OpenCode host: its config hook turns the project's `pair`
// team into agents, and a scripted lead starts the team, creates two dependent tasks,
// mails the writer and reads the status, while the writer's child session gets the mail
// through delivery.

const MODEL_ID = 'mock-model';
const MAIL_WAIT_MS = 120_000;
const distEntry = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'index.js');
const binary = findOpencodeBinary();
if (binary.reason) console.warn(`Skipping the real OpenCode team test: ${binary.reason}`);

const call = (name: string, args: Record<string, unknown>): MockTurn => ({
  toolCalls: [{ name, arguments: args }],
});

function systemTextOf(request: MockModelRequest): string {
  const system = request.body.messages?.find((message) => message.role === 'system');
  return messageText(system?.content);
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await delay(250);
  }
  return true;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

describe.skipIf(binary.path === undefined)('the Teamkit plugin in the real OpenCode host', () => {
  let root = '';
  let project = '';
  let teamkitHome = '';
  let dataHome = '';
  let env: NodeJS.ProcessEnv = {};
  let server: MockModelServer | undefined;
  let messageId: string | undefined;
  const writerMail: MockModelRequest[] = [];

  const mailAcknowledged = () => {
    if (messageId === undefined) return false;
    const runtime = join(teamkitHome, 'runtime');
    return readdirSync(runtime).some((run) =>
      existsSync(join(runtime, run, 'inboxes', 'writer', 'processed', `${messageId}.json`)),
    );
  };

  const leadTurn = async (request: MockModelRequest): Promise<MockTurn> => {
    const names = findToolResults(request).map((result) => result.toolName);
    const count = (name: string) => names.filter((candidate) => candidate === name).length;
    switch (names.at(-1)) {
      case undefined:
        return call('team_create', { team: 'pair' });
      case 'team_create':
        return call('team_task_create', {
          subject: 'Design the change',
          description: 'Write down the approach.',
        });
      case 'team_task_create':
        return count('team_task_create') === 1
          ? call('team_task_create', { subject: 'Build the change', blockedBy: ['1'] })
          : call('team_send_message', { to: 'writer', message: 'Please start on task 1.' });
      case 'team_send_message': {
        const sent = findToolResults(request).at(-1)?.content ?? '';
        messageId = /message (\S+) sent to writer/.exec(sent)?.[1];
        return call('team_status', {});
      }
      case 'team_status':
        if (count('team_status') > 1) return { text: 'The team is at work.' };
        // `opencode run` ends when the lead goes idle and cuts off work in flight; keep the
        // lead's turn open until the writer's mail has been delivered and acknowledged.
        await waitUntil(() => writerMail.length > 0 && mailAcknowledged(), MAIL_WAIT_MS);
        return call('team_status', {});
      default:
        return { text: 'Unexpected tool result.' };
    }
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'teamkit-opencode-team-'));
    const home = join(root, 'home');
    project = join(root, 'project');
    teamkitHome = join(root, 'teamkit-home');
    dataHome = join(home, '.local', 'share');
    for (const dir of [home, teamkitHome, join(project, '.opencode', 'plugin')]) {
      mkdirSync(dir, { recursive: true });
    }
    markPluginDependencyInstalled(join(project, '.opencode'));
    markPluginDependencyInstalled(join(home, '.config', 'opencode'));
    await writePairTeam(project);

    server = await startMockModelServer({
      models: [MODEL_ID],
      idleTimeoutMs: 2 * PROCESS_TIMEOUT_MS,
      script: async (request) => {
        // The host asks for a session title without tools; that is not a scripted turn.
        if (!request.body.tools?.length) return { text: 'Team session' };
        if (systemTextOf(request).includes('You are **writer**')) {
          if (JSON.stringify(request.body.messages).includes('<team_message id=')) {
            writerMail.push(request);
            return { text: 'Got it; starting on task 1.' };
          }
          return { text: 'Ready for work.' };
        }
        return leadTurn(request);
      },
    });
    env = offlineEnv(home, { TEAMKIT_HOME: teamkitHome });
  });

  afterAll(async () => {
    killRunningOpencode();
    await server?.close();
    if (root) await rm(root, { recursive: true, force: true, maxRetries: 5 });
  });

  const writeConfig = (extra: Record<string, unknown>) =>
    writeFileSync(
      join(project, 'opencode.json'),
      JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        autoupdate: false,
        share: 'disabled',
        model: `mock/${MODEL_ID}`,
        provider: mockProviderConfig(server?.url ?? '', MODEL_ID),
        ...extra,
      }),
    );

  it('lists the teams as agents when loaded as a file:// plugin entry with options', {
    timeout: PROCESS_TIMEOUT_MS + 30_000,
  }, async () => {
    expect(existsSync(distEntry), 'build the package first').toBe(true);
    writeConfig({ plugin: [[pathToFileURL(distEntry).href, { tmux: false }]] });
    const result = await runOpencode(binary.path ?? '', ['agent', 'list'], project, env);
    const report = describeResult('agent list', result, dataHome);
    expect(result.code, report).toBe(0);
    expect(result.stdout, report).toMatch(/^pair-lead \(primary\)$/m);
    expect(result.stdout, report).toMatch(/^pair-writer \(subagent\)$/m);
    expect(result.stdout, report).toMatch(/^coding-team-lead \(primary\)$/m);
    // The writer's permission rules, as the host resolved them: `.env` reads end denied.
    const lines = result.stdout.split('\n');
    const header = lines.indexOf('pair-writer (subagent)');
    const next = lines.findIndex(
      (line, index) => index > header && /^\S+ \((primary|subagent|all)\)$/.test(line),
    );
    const block = lines.slice(header + 1, next === -1 ? undefined : next).join('\n');
    const rules = JSON.parse(block) as { permission: string; pattern: string; action: string }[];
    const last = (permission: string, pattern: string) =>
      rules.findLast((rule) => rule.permission === permission && rule.pattern === pattern)?.action;
    expect(last('read', '*.env')).toBe('deny');
    expect(last('read', '*.env.*')).toBe('deny');
    expect(last('read', '*.env.example')).toBe('allow');
    expect(last('webfetch', '*')).toBe('deny');
    expect(last('bash', '*')).toBe('ask');
  });

  it('starts a team from a lead session, and the writer child session receives its mail', {
    timeout: 2 * PROCESS_TIMEOUT_MS + 30_000,
  }, async () => {
    writeConfig({});
    writeFileSync(
      join(project, '.opencode', 'plugin', 'teamkit.js'),
      `export { default } from ${JSON.stringify(pathToFileURL(distEntry).href)};\n`,
    );
    const args = ['run', '--model', `mock/${MODEL_ID}`, '--agent', 'pair-lead', 'Start the team.'];
    const result = await runOpencode(binary.path ?? '', args, project, env);
    const report = describeResult('run', result, dataHome);
    expect(result.code, report).toBe(0);
    expect(result.stdout, report).toContain('The team is at work.');

    const runs = readdirSync(join(teamkitHome, 'runtime')).filter((name) => !name.startsWith('.'));
    expect(runs, report).toHaveLength(1);
    const runDir = join(teamkitHome, 'runtime', runs[0] ?? '');
    const state = readJson<{
      status: string;
      leadSessionId: string;
      members: { name: string; sessionId?: string; isLead: boolean }[];
    }>(join(runDir, 'state.json'));
    expect(state.status).toBe('active');
    expect(state.leadSessionId).toMatch(/^ses_\w+$/);
    const writer = state.members.find((member) => member.name === 'writer');
    expect(writer?.sessionId).toMatch(/^ses_\w+$/);
    expect(writer?.sessionId).not.toBe(state.leadSessionId);
    expect(state.members.find((member) => member.isLead)?.sessionId).toBe(state.leadSessionId);

    const design = readJson<{ blocks: string[]; blockedBy: string[] }>(
      join(runDir, 'tasks', '1.json'),
    );
    const build = readJson<{ blocks: string[]; blockedBy: string[] }>(
      join(runDir, 'tasks', '2.json'),
    );
    expect(design.blocks).toEqual(['2']);
    expect(build.blockedBy).toEqual(['1']);

    // Exactly one message for the writer, acknowledged because its session history shows it.
    expect(messageId, report).toMatch(/^[0-9a-f-]{36}$/);
    const inbox = join(runDir, 'inboxes', 'writer');
    const unread = readdirSync(inbox).filter((name) => name.endsWith('.json'));
    const processed = readdirSync(join(inbox, 'processed'));
    expect([...unread, ...processed]).toEqual([`${messageId}.json`]);
    expect(processed).toEqual([`${messageId}.json`]);

    // The writer's own model request carried the delivered envelope.
    expect(writerMail.length, report).toBeGreaterThan(0);
    expect(JSON.stringify(writerMail[0]?.body.messages)).toContain(`id=\\"${messageId}\\"`);

    // The host's record: the writer is a child session of the lead that got the mail.
    const exported = await runOpencode(
      binary.path ?? '',
      ['export', writer?.sessionId ?? ''],
      project,
      env,
    );
    const exportReport = describeResult('export', exported, dataHome);
    expect(exported.code, exportReport).toBe(0);
    const json = exported.stdout.slice(exported.stdout.indexOf('{'));
    const session = JSON.parse(json) as {
      info: { id: string; parentID?: string };
      messages: {
        info: { role: string; agent?: string };
        parts: { type: string; text?: string }[];
      }[];
    };
    expect(session.info.parentID).toBe(state.leadSessionId);
    const userTexts = session.messages
      .filter((message) => message.info.role === 'user')
      .map((message) => message.parts.map((part) => part.text ?? '').join('\n'));
    expect(userTexts.some((text) => text.includes(`id="${messageId}"`))).toBe(true);
    expect(session.messages.find((message) => message.info.role === 'user')?.info.agent).toBe(
      'pair-writer',
    );
  });
});
