import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { runPaths } from '@teamkit/team-core/storage';
import {
  type AgentCliName,
  createAgentCliEnvironment,
  createMarkerScript,
  findAgentCli,
  findToolResults,
  findUserTexts,
  type MockModelRequest,
  type MockModelServer,
  type MockToolCall,
  type MockTurnResolver,
  requestsWithMarker,
  startMockModelServer,
} from '@teamkit/test-harness';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli.js';

// Each preset drives its real agent CLI as a turn-based member, started by `team run
// start --agent`, against a scripted model: the first turn runs in the member's worktree
// (edits there, an edit of the Teamkit home refused, a task claimed through the team's MCP
// server or the `team` command, a message to the lead sent with the `team` command on its
// PATH through the agent's own shell tool); mail starts a second turn that continues the same conversation; a model outage
// fails the turn, which is retried, then the member is errored and its task returned.

interface PresetCase {
  preset: AgentCliName;
  /** Passed as `--model` (OpenCode needs its provider, Gemini CLI skips its router). */
  model?: string;
  write(file: string, text: string): MockToolCall[];
  /** The calls that claim task 1 through the team's MCP server. */
  claim: MockToolCall[];
  /** The agent's shell tool running `command`; none where the sandbox keeps `team` from the home. */
  shell?: (command: string) => MockToolCall;
  /** A first run before the team starts (OpenCode migrates its database on first use). */
  warmUp?: string[];
  /** What a refused write outside the worktree reports to the model. */
  refused: RegExp;
  /** A scripted outage; OpenCode retries by itself, so it is told to wait 1 ms. */
  outage: { status: number; message: string; retryAfterMs?: number };
}

const CASES: PresetCase[] = [
  {
    preset: 'claude',
    write: (file, text) => [{ name: 'Write', arguments: { file_path: file, content: text } }],
    claim: [
      { name: 'ToolSearch', arguments: { query: 'select:mcp__teamkit__task_claim' } },
      { name: 'mcp__teamkit__task_claim', arguments: { id: '1' } },
    ],
    shell: (command) => ({ name: 'Bash', arguments: { command, description: 'Tell the lead' } }),
    refused: /permission|denied|not allowed|outside|requested permissions/i,
    outage: { status: 500, message: 'scripted outage' },
  },
  {
    preset: 'codex',
    write: (file, text) => [
      { name: 'exec_command', arguments: { cmd: `printf '%s' '${text}' > '${file}'` } },
    ],
    claim: [{ name: 'mcp__teamkit__task_claim', arguments: { id: '1' } }],
    refused: /Read-only file system|Permission denied/,
    outage: { status: 500, message: 'scripted outage' },
  },
  {
    preset: 'opencode',
    model: 'mock/mock-model',
    write: (file, text) => [{ name: 'write', arguments: { filePath: file, content: text } }],
    claim: [{ name: 'teamkit_task_claim', arguments: { id: '1' } }],
    shell: (command) => ({ name: 'bash', arguments: { command, description: 'Tell the lead' } }),
    warmUp: ['session', 'list'],
    refused: /external|denied|outside|not allowed|permission/i,
    outage: { status: 500, message: 'scripted outage', retryAfterMs: 1 },
  },
  {
    preset: 'gemini',
    model: 'gemini-2.5-flash',
    write: (file, text) => [{ name: 'write_file', arguments: { file_path: file, content: text } }],
    // Gemini CLI reaches its team through the `team` command (no per-process MCP).
    claim: [{ name: 'run_shell_command', arguments: { command: 'team task claim 1' } }],
    shell: (command) => ({ name: 'run_shell_command', arguments: { command } }),
    refused: /not in workspace|outside|denied|must be within/i,
    outage: { status: 500, message: 'scripted outage' },
  },
];

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(250);
  }
}

/** What the worker tells the lead with the `team` command (no `[turn:…]` marker in it). */
const SHIM_MESSAGE = 'notes written, sent with the team command';

/** Every message file in a member's inbox, read or not. */
function inboxTexts(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));
}

const says = (request: MockModelRequest, marker: string) =>
  findUserTexts(request).some((text) => text.includes(`[turn:${marker}]`));

for (const testCase of CASES) {
  const cli = findAgentCli(testCase.preset);
  if (!cli.found) console.warn(`Skipping the ${testCase.preset} preset host test: ${cli.reason}`);

  describe.skipIf(!cli.found)(`the ${testCase.preset} preset`, () => {
    it('takes turns in the worktree, continues the conversation on mail, and is errored after failing turns', {
      timeout: 600_000,
    }, async () => {
      if (!cli.found) return;
      const root = realpathSync(
        await mkdtemp(path.join(os.tmpdir(), `teamkit-preset-${testCase.preset}-`)),
      );
      const home = path.join(root, 'home');
      const repo = path.join(root, 'repo');
      mkdirSync(path.join(home, 'teams', 'pair'), { recursive: true });
      mkdirSync(repo);
      const git = (...args: string[]) =>
        execFileSync('git', args, {
          cwd: repo,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      git('init', '-q', '-b', 'main');
      git(
        '-c',
        'user.name=t',
        '-c',
        'user.email=t@teamkit.invalid',
        'commit',
        '-q',
        '--allow-empty',
        '-m',
        'init',
      );
      writeFileSync(
        path.join(home, 'teams', 'pair', 'team.yaml'),
        [
          'id: pair',
          'name: pair',
          'lead: lead',
          `agent: ${testCase.preset}`,
          'members:',
          '  - name: lead',
          '    role: lead',
          '    prompt: "[turn:lead] You lead."',
          '  - name: worker',
          '    role: worker',
          '    prompt: "[turn:worker] You work."',
          '    worktree: true',
          '',
        ].join('\n'),
      );
      writeFileSync(
        path.join(home, 'config.json'),
        JSON.stringify({ version: 1, teams: [{ path: '@teams/pair' }] }),
      );
      const outside = path.join(home, 'escape.txt');
      const worktree = (file: string) => path.join(home, 'worktrees', runId, 'worker', file);
      let runId = '';
      // Members call the model before `team run start` returns the run id the paths need.
      let knowRunId: () => void = () => {};
      const runIdKnown = new Promise<void>((resolve) => {
        knowRunId = resolve;
      });
      let markers: MockTurnResolver | undefined;
      const script: MockTurnResolver = async (request, index) => {
        if (says(request, 'crash')) return { error: testCase.outage };
        await runIdKnown;
        markers ??= createMarkerScript({
          worker: [
            { toolCalls: testCase.write(worktree('notes.txt'), 'first') },
            { toolCalls: testCase.write(outside, 'escaped') },
            ...testCase.claim.map((call) => ({ toolCalls: [call] })),
            ...(testCase.shell === undefined
              ? []
              : [{ toolCalls: [testCase.shell(`team send --to lead '${SHIM_MESSAGE}'`)] }]),
          ],
          again: [{ toolCalls: testCase.write(worktree('second.txt'), 'second') }],
        });
        return markers(request, index);
      };
      const server: MockModelServer = await startMockModelServer({
        script,
        idleTimeoutMs: 15 * 60_000,
      });
      const environment = createAgentCliEnvironment(testCase.preset, {
        root: path.join(root, 'agent'),
        server,
        // The environment names the model inside its `mock` provider; `--model` names both.
        ...(testCase.model === undefined ? {} : { model: testCase.model.replace(/^mock\//, '') }),
      });
      const env: Record<string, string> = {
        ...(environment.env as Record<string, string>),
        [`TEAMKIT_${testCase.preset.toUpperCase()}_BIN`]: cli.path,
        TEAMKIT_TURN_RETRIES: '1',
        TEAMKIT_TURN_RETRY_DELAY_MS: '200',
      };
      const team = (args: string[]) =>
        runCli([...args, '--home', home, '--json'], env, { timeoutMs: 120_000 });
      if (testCase.warmUp !== undefined) {
        execFileSync(cli.path, testCase.warmUp, {
          cwd: root,
          env: { ...process.env, ...env },
          stdio: 'ignore',
          timeout: 120_000,
        });
      }
      cleanups.push(async () => {
        if (runId !== '') await team(['run', 'stop', runId, '--force']);
        await server.close();
        if (process.env.TEAMKIT_KEEP_HOST_TEST !== '1')
          await rm(root, { recursive: true, force: true, maxRetries: 5 });
      });

      const started = await team([
        'run',
        'start',
        'pair',
        '--repo',
        repo,
        '--no-tmux',
        ...(testCase.model === undefined ? [] : ['--model', testCase.model]),
      ]);
      expect(started.code, started.stdout + started.stderr).toBe(0);
      runId = started.json().runId as string;
      knowRunId();
      const created = await team(['task', 'create', runId, 'Write the notes']);
      expect(created.code, created.stdout + created.stderr).toBe(0);
      const status = async () =>
        (await team(['run', 'status', runId])).json().status as {
          members: { name: string; status: string; turns: number }[];
          tasks: { id: string; status: string; owner?: string }[];
        };
      const log = () =>
        ['worker', 'lead', 'supervisor']
          .map((name) => {
            const file = path.join(home, 'runtime', runId, 'logs', `${name}.log`);
            return `--- ${name}\n${existsSync(file) ? readFileSync(file, 'utf8').slice(-4000) : ''}`;
          })
          .join('\n');

      // First turn: an edit in the worktree, a refused edit of the home, a claim over MCP.
      await waitFor('the worker to wait for mail after its first turn', async () => {
        const worker = (await status()).members.find((m) => m.name === 'worker');
        return worker?.status === 'idle' ? worker : undefined;
      }).catch((error) => {
        throw new Error(`${String(error)}\n${log()}`);
      });
      expect(readFileSync(worktree('notes.txt'), 'utf8').trim(), log()).toBe('first');
      expect(existsSync(path.join(repo, 'notes.txt'))).toBe(false);
      expect(existsSync(outside), log()).toBe(false);
      const firstTurn = requestsWithMarker(server.requests, 'worker');
      const results = findToolResults(firstTurn.at(-1) ?? ({} as MockModelRequest));
      expect(
        results.some((result) => testCase.refused.test(String(result.content))),
        JSON.stringify(results),
      ).toBe(true);
      const tasks = await team(['task', 'list', runId]);
      expect(JSON.stringify(tasks.json()), log()).toContain('"owner":"worker"');
      if (testCase.shell !== undefined) {
        const mail = inboxTexts(runPaths(home, runId).inbox('lead'));
        const fromShim = mail.map((text) => JSON.parse(text) as { from?: string; body?: string });
        expect(
          fromShim.some((message) => message.from === 'worker' && message.body === SHIM_MESSAGE),
          `${JSON.stringify(fromShim)}\n${log()}`,
        ).toBe(true);
      }

      // Mail starts the next turn, in the same conversation.
      const sent = await team([
        'send',
        runId,
        '--to',
        'worker',
        '[turn:again] Write the second file.',
      ]);
      expect(sent.code, sent.stdout + sent.stderr).toBe(0);
      await waitFor('the second turn', async () =>
        existsSync(worktree('second.txt')) ? true : undefined,
      ).catch((error) => {
        throw new Error(`${String(error)}\n${log()}`);
      });
      const resumed = requestsWithMarker(server.requests, 'again')[0];
      expect(
        resumed !== undefined && says(resumed, 'worker'),
        'the resumed turn carries the first',
      ).toBe(true);
      const session = JSON.parse(
        readFileSync(path.join(home, 'runtime', runId, 'turns', 'worker.json'), 'utf8'),
      ) as { sessionId?: string; turns: number };
      expect(session.sessionId).toBeDefined();

      // An outage fails the turn; it is retried once, then the member is errored and its task returned.
      await team(['send', runId, '--to', 'worker', '[turn:crash] Go on.']);
      const errored = await waitFor('the worker to be errored', async () => {
        const now = await status();
        return now.members.find((m) => m.name === 'worker')?.status === 'errored' ? now : undefined;
      }).catch((error) => {
        throw new Error(`${String(error)}\n${log()}`);
      });
      const task = errored.tasks.find((t) => t.id === '1');
      expect(task?.status).toBe('pending');
      expect(task?.owner).toBeUndefined();
      expect(
        readFileSync(path.join(home, 'runtime', runId, 'logs', 'worker.log'), 'utf8'),
      ).toContain('failed (exit');
      expect(errored.members.find((m) => m.name === 'worker')?.turns).toBe(4);
    });
  });
}
