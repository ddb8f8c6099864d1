import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  createAgentCliEnvironment,
  createMarkerScript,
  findAgentCli,
  findToolResults,
  type MockModelServer,
  type MockTurn,
  type NatsServerProcess,
  startMockModelServer,
  startNatsServer,
} from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesOfHome } from '../test-support/home-processes.js';
import { type CliResult, createTempHome, runCli } from '../test-support/run-cli.js';
import { natsServerMissing, waitFor } from '../test-support/shared-store.js';
import { writeTestTeam } from '../test-support/test-team.js';

// A real agent CLI as a member of a run shared by two machines through NATS, as a user
// would run it: machine A (its own Teamkit home and clone) starts the run and leaves w1 for
// machine B; B (its own home and clone) joins w1 on Codex, driven by a scripted model on
// 127.0.0.1. A creates a task and mails w1; Codex on B claims it with its team tools,
// commits in B's worktree with its own shell, completes it and offers it for review; A
// sees it on the board and approves. The commit is in B's clone only: `team run merge` on
// A refuses with WORK_NOT_IN_REPOSITORY and names the branch; once B pushes it and A
// fetches it (the commands the message gives), the merge puts it on A's main.
const execGit = promisify(execFile);
const natsMissing = natsServerMissing();
const codex = findAgentCli('codex');
if (!codex.found) console.warn(`Skipping the NATS agent CLI test: ${codex.reason}`);
const missing = natsMissing ?? (codex.found ? undefined : codex.reason);

const call = (name: string, args: unknown): MockTurn => ({
  toolCalls: [{ name, arguments: args }],
});
const tool = (name: string, args: unknown) => call(`mcp__teamkit__${name}`, args);
const shell = (cmd: string) => call('exec_command', { cmd });

/** Codex's turn, started by the lead's mail that carries `[turn:work]`. */
const TURNS: Record<string, MockTurn[]> = {
  work: [
    tool('task_claim', { id: '1' }),
    tool('task_update', { id: '1', status: 'in_progress' }),
    shell(
      "printf 'hello from machine B\\n' > greeting.txt && git add greeting.txt && git commit -q -m 'Add greeting.txt' && git log -1 --format=%s",
    ),
    tool('task_update', { id: '1', status: 'completed' }),
    tool('task_submit_for_review', { id: '1' }),
    tool('send_message', { to: 'lead', message: 'Task 1 is committed on my branch, in review.' }),
  ],
};

let server: NatsServerProcess | undefined;
let model: MockModelServer | undefined;
let folder = '';
let cleanup: (() => Promise<void>) | undefined;
let homeA = '';
let homeB = '';
let repoA = '';
let cloneB = '';
let runId = '';
let codexEnv: Record<string, string> = {};

const git = async (cwd: string, ...args: string[]) =>
  (await execGit('git', args, { cwd, encoding: 'utf8' })).stdout.trim();
const ok = (result: CliResult) => {
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return result.json();
};
/** `team` on machine A (the user's shell there). */
const onA = (args: string[]) =>
  runCli(
    [...args, '--home', homeA, '--json'],
    { TEAMKIT_STORE: server?.url ?? '' },
    {
      timeoutMs: 90_000,
    },
  );
/** `team` on machine B, whose user has Codex set up (here: pointed at the scripted model). */
const onB = (args: string[]) =>
  runCli(
    [...args, '--home', homeB, '--json'],
    { ...codexEnv, TEAMKIT_STORE: server?.url ?? '' },
    { timeoutMs: 90_000 },
  );

interface TaskShown {
  status: string;
  owner?: string;
  work?: { member: string; branch: string; commit: string };
}
const task = async (id: string) => ok(await onA(['task', 'get', runId, id])).task as TaskShown;

function logOf(home: string, member: string): string {
  try {
    return readFileSync(path.join(home, 'runtime', runId, 'logs', `${member}.log`), 'utf8');
  } catch {
    return '';
  }
}

/** The `TEAMKIT_*` variables a member's process was started with (its host set them). */
function memberEnv(sessionId: string | undefined): Record<string, string> {
  const pid = Number(/^proc-(\d+)-/.exec(sessionId ?? '')?.[1]);
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((entry) => entry.startsWith('TEAMKIT_'))
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

const alive = () => [
  ...(homeA === '' ? [] : processesOfHome(homeA)),
  ...(homeB === '' ? [] : processesOfHome(homeB)),
];

describe.skipIf(missing !== undefined)(
  'a real agent CLI as a member on another machine, through NATS',
  () => {
    beforeAll(async () => {
      server = await startNatsServer();
      model = await startMockModelServer({
        script: createMarkerScript(TURNS),
        idleTimeoutMs: 10 * 60_000,
      });
      ({ home: folder, cleanup } = await createTempHome());
      homeA = path.join(folder, 'machine-a');
      homeB = path.join(folder, 'machine-b');
      await mkdir(homeA);
      await mkdir(homeB);
      // One remote both machines reach; each machine has its own clone of it.
      const origin = path.join(folder, 'origin.git');
      const seed = path.join(folder, 'seed');
      await execGit('git', ['init', '-q', '-b', 'main', seed]);
      await writeFile(path.join(seed, 'README.md'), 'base\n');
      await git(seed, 'add', 'README.md');
      await git(
        seed,
        '-c',
        'user.name=seed',
        '-c',
        'user.email=seed@teamkit.invalid',
        'commit',
        '-q',
        '-m',
        'init',
      );
      await execGit('git', ['clone', '-q', '--bare', seed, origin]);
      repoA = path.join(folder, 'clone-a');
      cloneB = path.join(folder, 'clone-b');
      for (const [clone, who] of [
        [repoA, 'a'],
        [cloneB, 'b'],
      ] as const) {
        await execGit('git', ['clone', '-q', origin, clone]);
        await git(clone, 'config', 'user.name', `user on ${who}`);
        await git(clone, 'config', 'user.email', `${who}@teamkit.invalid`);
      }
      codexEnv = {
        ...createAgentCliEnvironment('codex', {
          root: path.join(folder, 'codex'),
          server: model,
        }).env,
      } as Record<string, string>;
      if (codex.found) codexEnv.TEAMKIT_CODEX_BIN = codex.path;
      await writeTestTeam(homeA, {
        id: 'pair',
        lead: 'lead',
        members: ['lead', 'w1'],
        worktrees: ['w1'],
      });
    }, 120_000);

    afterAll(async () => {
      if (runId !== '') await onA(['run', 'stop', runId, '--force']).catch(() => undefined);
      // Each machine's supervisor stops its own members once it sees the run stopped.
      await waitFor(
        'every process of both machines to end',
        async () => (alive().length === 0 ? true : undefined),
        60_000,
      ).catch(() => undefined);
      for (const { pid } of alive()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await model?.close();
      await server?.close();
      await cleanup?.();
    }, 150_000);

    it('starts the run on A and joins w1 on B with Codex', async () => {
      // As a user types it on A: the text says what to run on the other machine.
      const started = await runCli(
        [
          'run',
          'start',
          'pair',
          '--repo',
          repoA,
          '--agent-cmd',
          'sleep 600',
          '--elsewhere',
          'w1',
          '--home',
          homeA,
        ],
        { TEAMKIT_STORE: server?.url ?? '' },
        { timeoutMs: 90_000 },
      );
      expect(started.code, started.stdout + started.stderr).toBe(0);
      runId = /run ([0-9a-f-]{36})/.exec(started.stdout)?.[1] ?? '';
      expect(runId).not.toBe('');
      expect(started.stdout).toContain('members: lead; waiting: w1');
      expect(started.stdout).toContain(
        `there, with the same TEAMKIT_STORE: team run join ${runId.slice(0, 8)} w1 --repo <its clone>`,
      );
      ok(await onA(['task', 'create', runId, 'Write greeting.txt']));
      const joined = ok(
        await onB(['run', 'join', runId.slice(0, 8), 'w1', '--repo', cloneB, '--agent', 'codex']),
      );
      expect(joined.spawned).toEqual(['w1']);
    });

    it("has Codex on B claim the task, commit in B's worktree and offer it for review; A sees it", async () => {
      ok(
        await onA([
          'send',
          runId,
          '--to',
          'w1',
          '[turn:work] Task 1 is yours: write greeting.txt.',
        ]),
      );
      const reviewed = await waitFor(
        'w1 to offer task 1 for review',
        async () => {
          const shown = await task('1');
          return shown.status === 'in_review' ? shown : undefined;
        },
        150_000,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n--- w1 on B\n${logOf(homeB, 'w1').slice(-4000)}`);
      });
      expect(reviewed.owner).toBe('w1');
      const branch = `teamkit/${runId.slice(0, 8)}/w1`;
      expect(reviewed.work).toMatchObject({ member: 'w1', branch });

      // The commit is B's: in B's worktree (under B's home), not in A's repository.
      const status = ok(await onB(['run', 'status', runId])).status as {
        members: { name: string; worktreePath?: string; sessionId?: string }[];
      };
      const worktree = status.members.find((member) => member.name === 'w1')?.worktreePath ?? '';
      expect(worktree.startsWith(path.join(homeB, 'worktrees', runId))).toBe(true);
      expect(await git(worktree, 'log', '-1', '--format=%H %s')).toBe(
        `${reviewed.work?.commit} Add greeting.txt`,
      );
      await expect(
        git(repoA, 'cat-file', '-e', `${reviewed.work?.commit}^{commit}`),
      ).rejects.toThrow();
      // The team tools answered from the shared run (what the model was shown),
      const results = (model?.requests ?? []).flatMap((request) =>
        findToolResults(request).map((result) => result.content),
      );
      expect(results.join('\n')).toContain('"status":"claimed","owner":"w1"');
      // and its shell ran in B's worktree: the commit's subject.
      expect(results.join('\n')).toContain('Output:\nAdd greeting.txt');

      // A sees the whole run: the board, and w1's mail in the lead's inbox.
      const board = ok(await onA(['board', runId])).columns as {
        title: string;
        tasks: { id: string; owner?: string }[];
      }[];
      expect(board.find((column) => column.title === 'review')?.tasks).toEqual([
        expect.objectContaining({ id: '1', owner: 'w1' }),
      ]);
      const lead = status.members.find((member) => member.name === 'lead');
      const inbox = ok(await runCli(['inbox', '--json'], memberEnv(lead?.sessionId)));
      expect(inbox.messages).toEqual([
        expect.objectContaining({
          from: 'w1',
          body: 'Task 1 is committed on my branch, in review.',
        }),
      ]);
    }, 200_000);

    it('approves on A; merging needs the branch pushed from B and fetched on A, then it merges', async () => {
      ok(await onA(['task', 'approve', runId, '1']));
      const { work } = await task('1');
      const branch = work?.branch ?? '';
      const mainBefore = await git(repoA, 'rev-parse', 'main');

      const refused = await onA(['run', 'merge', runId]);
      expect(refused.code, refused.stdout + refused.stderr).toBe(3);
      const error = refused.json().error as { code: string; message: string };
      expect(error.code).toBe('WORK_NOT_IN_REPOSITORY');
      expect(error.message).toContain(`git push origin ${branch}`);
      expect(error.message).toContain(`git fetch origin ${branch}:${branch}`);
      expect(await git(repoA, 'rev-parse', 'main')).toBe(mainBefore);

      // What the message says: push on B, fetch on A.
      const status = ok(await onB(['run', 'status', runId])).status as {
        members: { name: string; worktreePath?: string }[];
      };
      const worktree = status.members.find((member) => member.name === 'w1')?.worktreePath ?? '';
      await git(worktree, 'push', '-q', 'origin', branch);
      await git(repoA, 'fetch', '-q', 'origin', `${branch}:${branch}`);

      const merged = ok(await onA(['run', 'merge', runId])).report as {
        into: string;
        changed: boolean;
        tasks: { id: string; commit: string; outcome: string }[];
      };
      expect(merged.into).toBe('main');
      expect(merged.changed).toBe(true);
      expect(merged.tasks).toEqual([
        expect.objectContaining({ id: '1', commit: work?.commit, outcome: 'merged' }),
      ]);
      expect(await git(repoA, 'log', '--format=%s', 'main')).toBe(
        ['Merge task 1: Write greeting.txt', 'Add greeting.txt', 'init'].join('\n'),
      );
      expect(await git(repoA, 'show', 'main:greeting.txt')).toBe('hello from machine B');
    }, 120_000);
  },
);
