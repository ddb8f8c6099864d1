import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  findAgentCli,
  type MockModelRequest,
  type MockModelServer,
  type MockTurn,
  REQUIRE_PROGRAMS_ENV,
  startMockModelServer,
} from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaudeTeamView } from './claude-team-view.js';
import { createClaudeTeamSource } from './create-claude-team-source.js';
import { createClaudeTeamWriter } from './create-claude-team-writer.js';
import { createProcessProbe } from './process-probe.js';
import {
  type InteractiveClaude,
  prepareInteractiveClaude,
} from './test-support/interactive-claude.js';
import type { ClaudeTeamChange, ClaudeTeamWatch } from './watch-claude-teams.js';

// The real Claude Code 2.1.328, interactive in a private tmux server (its team layer runs
// only there), against a scripted Anthropic Messages API on loopback.

const cli = findAgentCli('claude');
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasTmux && process.env[REQUIRE_PROGRAMS_ENV] === '1') {
  throw new Error(`tmux is not installed (${REQUIRE_PROGRAMS_ENV}=1 makes this a failure)`);
}
const skipReason = !cli.found ? cli.reason : !hasTmux ? 'tmux is not installed' : undefined;
if (skipReason !== undefined) console.warn(`Skipping the Claude Code team tests: ${skipReason}`);

type Block = {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  tool_use_id?: string;
  content?: unknown;
};
type Message = { role?: string; content?: unknown };

const blocksOf = (message: Message | undefined): Block[] =>
  Array.isArray(message?.content)
    ? (message.content as Block[])
    : typeof message?.content === 'string'
      ? [{ type: 'text', text: message.content }]
      : [];
const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((block: Block) => block.text ?? '').join('')
      : '';

function isLead(request: MockModelRequest): boolean {
  const system = blocksOf({ content: request.body.system })
    .map((block) => block.text ?? '')
    .join('');
  return system.includes("You are Claude Code, Anthropic's official CLI");
}

/** Every user text and tool result the request carries, as text. */
function userTexts(request: MockModelRequest): string[] {
  return (request.body.messages ?? [])
    .filter((message) => message.role === 'user')
    .flatMap((message) => blocksOf(message))
    .map((block) => (block.type === 'tool_result' ? textOf(block.content) : (block.text ?? '')));
}

/** The name of the tool whose result the request's last user message carries, if any. */
function lastToolResult(request: MockModelRequest): { name: string; content: string } | undefined {
  const messages = (request.body.messages ?? []) as Message[];
  const last = messages.findLast((message) => message.role === 'user');
  const result = blocksOf(last).find((block) => block.type === 'tool_result');
  if (result === undefined) return undefined;
  const call = messages
    .flatMap((message) => blocksOf(message))
    .find((block) => block.type === 'tool_use' && block.id === result.tool_use_id);
  return { name: call?.name ?? '', content: textOf(result.content) };
}

/** The scripted lead: set up a team on `[turn:setup]`, list tasks on `[turn:tasks]`, else say ok. */
function answer(request: MockModelRequest): MockTurn {
  if (!isLead(request) || (request.body.tools ?? []).length === 0) return { text: 'ok' };
  const result = lastToolResult(request);
  if (result !== undefined) {
    if (result.name === 'ToolSearch') {
      return {
        toolCalls: [
          {
            name: 'TaskCreate',
            arguments: { subject: 'Write the README', description: 'Explain the project' },
          },
        ],
      };
    }
    if (result.name === 'TaskCreate') {
      return {
        toolCalls: [
          {
            name: 'Agent',
            arguments: {
              description: 'helper',
              prompt: 'Help with the README',
              name: 'worker',
              run_in_background: true,
            },
          },
        ],
      };
    }
    return { text: `${result.name} done` };
  }
  const messages = (request.body.messages ?? []) as Message[];
  const typed = blocksOf(messages.findLast((message) => message.role === 'user'))
    .map((block) => block.text ?? '')
    .join('');
  if (typed.includes('[turn:setup]')) {
    return {
      toolCalls: [
        { name: 'ToolSearch', arguments: { query: 'select:TaskCreate,TaskList,SendMessage' } },
      ],
    };
  }
  if (typed.includes('[turn:tasks]')) return { toolCalls: [{ name: 'TaskList', arguments: {} }] };
  return { text: 'ok' };
}

async function waitFor<T>(
  find: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(25);
  }
}

describe.skipIf(skipReason !== undefined)(
  'a real Claude Code team, read and written by Teamkit',
  () => {
    let root = '';
    let server: MockModelServer;
    let claude: InteractiveClaude;
    let watch: ClaudeTeamWatch | undefined;
    const seen: { at: number; change: ClaudeTeamChange }[] = [];
    const latest = (): ClaudeTeamView | undefined => {
      const last = seen.findLast((entry) => entry.change.type === 'updated')?.change;
      return last?.type === 'updated' ? last.team : undefined;
    };

    beforeAll(async () => {
      root = await mkdtemp(path.join(os.tmpdir(), 'teamkit-claude-host-'));
      server = await startMockModelServer({ script: (request) => answer(request) });
      claude = prepareInteractiveClaude({
        root,
        claude: cli.found ? cli.path : 'claude',
        apiOrigin: server.origin,
      });
    });
    afterAll(async () => {
      watch?.close();
      await claude?.stop();
      await server?.close();
      await rm(root, { recursive: true, force: true });
    });

    it('lists the team, its teammate and task, delivers messages both ways, adds a task, and sees the lead end', {
      timeout: 300_000,
    }, async () => {
      const source = createClaudeTeamSource({ configDir: claude.configDir });
      const writer = createClaudeTeamWriter({ configDir: claude.configDir });
      watch = source.watch((change) => seen.push({ at: Date.now(), change }));
      await watch.ready;
      await claude.start();

      // 2.1.328 makes the session's team as it starts, with the lead alone.
      // Its session file, with the version, follows a moment later.
      const started = await waitFor(
        () =>
          latest()?.liveness.status === 'live' && latest()?.version !== undefined
            ? latest()
            : undefined,
        'the team and its version',
      );
      expect(started.members.map((member) => member.name)).toEqual(['team-lead']);
      expect(started.version).toBe('2.1.328');
      expect(started.warnings).toEqual([]);
      const team = started.name;
      await waitFor(
        async () => ((await claude.screen()).includes('❯') ? true : undefined),
        'the prompt',
      );

      // The scripted lead creates a task and a teammate; the watch reports both.
      await claude.type('[turn:setup] Set up a team.');
      const configFile = path.join(claude.configDir, 'teams', team, 'config.json');
      const taskFile = path.join(claude.configDir, 'tasks', team, '1.json');
      const appeared = await waitFor(() => {
        try {
          const config = JSON.parse(readFileSync(configFile, 'utf8')) as { members: unknown[] };
          return config.members.length === 2 && existsSync(taskFile) ? Date.now() : undefined;
        } catch {
          return undefined;
        }
      }, 'the teammate and the task files');
      const shown = await waitFor(
        () =>
          seen.find(
            ({ change }) =>
              change.type === 'updated' &&
              change.team.members.length === 2 &&
              change.team.tasks.length === 1,
          ),
        'the watch to report the teammate and the task',
      );
      console.info(
        `[claude-team] the watch reported the teammate and task ${shown.at - appeared} ms after the files held them`,
      );
      const view = await source.readTeam(team);
      expect(view.members.map((member) => [member.name, member.isLead])).toEqual([
        ['team-lead', true],
        ['worker', false],
      ]);
      expect(view.tasks).toEqual([
        expect.objectContaining({
          id: '1',
          subject: 'Write the README',
          description: 'Explain the project',
          status: 'pending',
        }),
      ]);
      expect((await source.listTeams()).teams.map((entry) => entry.name)).toContain(team);

      // A message to the lead reaches it in its next request; one to the teammate reaches the teammate.
      const toLead = await writer.sendMessage({
        team,
        to: 'team-lead',
        text: 'Lead, Teamkit says hello (m-1).',
      });
      expect(toLead.warnings).toEqual([]);
      await waitFor(
        () =>
          server.requests.find(
            (request) =>
              isLead(request) && userTexts(request).some((text) => text.includes('(m-1)')),
          ),
        "the lead's request carrying the message",
      );
      await writer.sendMessage({ team, to: 'worker', text: 'Worker, Teamkit says hello (m-2).' });
      await waitFor(
        () =>
          server.requests.find(
            (request) =>
              !isLead(request) && userTexts(request).some((text) => text.includes('(m-2)')),
          ),
        "the teammate's request carrying the message",
      );

      // A task Teamkit creates is in the lead's next TaskList.
      const created = await writer.createTask({
        team,
        subject: 'Teamkit task t-1',
        description: 'made outside',
      });
      expect(created.id).toBe('2');
      await claude.type('[turn:tasks] List the tasks.');
      const listed = await waitFor(
        () => server.requests.map(lastToolResult).find((result) => result?.name === 'TaskList'),
        'the TaskList result',
      );
      expect(listed.content).toContain('#1 [pending] Write the README');
      expect(listed.content).toContain('#2 [pending] Teamkit task t-1');

      // The lead ends: the team is finished and no process is left.
      const leadPid = (await source.readTeam(team)).liveness.leadPid;
      expect(leadPid).toBeGreaterThan(1);
      await claude.type('/exit');
      const finished = await waitFor(
        () =>
          latest()?.name === team && latest()?.liveness.status === 'finished'
            ? latest()
            : undefined,
        'the team to be finished',
      );
      expect(finished.hasConfig).toBe(false);
      expect(finished.tasks.map((task) => task.id)).toEqual(['1', '2']);
      await waitFor(
        () => (createProcessProbe().isRunning(leadPid as number) ? undefined : true),
        'the lead process to exit',
      );
    });
  },
);
