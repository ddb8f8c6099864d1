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
import {
  createAgentCliEnvironment,
  findAgentCli,
  findToolResults,
  findUserTexts,
  type MockApiFlavour,
  type MockModelRequest,
  type MockModelServer,
  type MockToolCall,
  type MockTurn,
  type MockTurnResolver,
  startMockModelServer,
} from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesOfHome } from '../test-support/home-processes.js';
import { runCli } from '../test-support/run-cli.js';

// The whole loop with three real agent CLIs in one team, each driven by a scripted model
// on 127.0.0.1: the lead on Claude Code plans three tasks (one blocked by another) with
// the team's MCP tools; the implementer on Codex claims them, edits and commits with its
// own shell tool in its worktree and submits each for review; the reviewer on OpenCode
// reads the commits with its shell tool, asks for changes once, then approves (the lead
// carries the verdicts out: only the lead moves a task to approved or back to pending);
// the lead asks everyone to shut down, both approve, the run completes, `team run merge`
// puts the work on `main` in dependency order and `team run report` shows it all. Every
// step is checked on disk: task files, inboxes, the events log, git history, /proc.

const CLIS = {
  lead: findAgentCli('claude'),
  implementer: findAgentCli('codex'),
  reviewer: findAgentCli('opencode'),
};
const missing = Object.values(CLIS).flatMap((cli) => (cli.found ? [] : [cli.reason]));
if (missing.length > 0) console.warn(`Skipping the mixed team host test: ${missing.join('; ')}`);

/** Each member speaks its CLI's model API, so the flavour of a request names its member. */
const MEMBER_OF: Partial<Record<MockApiFlavour, Member>> = {
  'anthropic-messages': 'lead',
  'openai-responses': 'implementer',
  'chat-completions': 'reviewer',
};
type Member = keyof typeof CLIS;

const call = (name: string, args: unknown): MockTurn => ({
  toolCalls: [{ name, arguments: args } satisfies MockToolCall],
});

/** The lead's (Claude Code) team tools are deferred: each turn loads them with ToolSearch. */
const load = (...tools: string[]) =>
  call('ToolSearch', { query: `select:${tools.map((tool) => `mcp__teamkit__${tool}`).join(',')}` });
const lead = (tool: string, args: unknown) => call(`mcp__teamkit__${tool}`, args);
const codex = (tool: string, args: unknown) => call(`mcp__teamkit__${tool}`, args);
const shell = (cmd: string) => call('exec_command', { cmd });
const opencode = (tool: string, args: unknown) => call(`teamkit_${tool}`, args);
const readCommits = call('bash', {
  command: 'git log --all --format=%s',
  description: 'Read the commits',
});

/** Claim, start, edit and commit with the shell, complete and submit one task. */
const doTask = (id: string, command: string): MockTurn[] => [
  codex('task_claim', { id }),
  codex('task_update', { id, status: 'in_progress' }),
  shell(command),
  codex('task_update', { id, status: 'completed' }),
  codex('task_submit_for_review', { id }),
];

const CHANGES_NOTE = 'Add a second line "welcome" to greeting.txt.';

/**
 * What each member's model does, by the newest `[turn:<name>]` marker in its
 * conversation: the member prompts carry one, and every message that starts a turn
 * carries the next one. A marker's steps are played one per model request, then the
 * model answers with text and the turn ends.
 */
const SCRIPTS: Record<Member, Record<string, MockTurn[]>> = {
  lead: {
    lead: [
      load('task_create', 'send_message'),
      lead('task_create', {
        subject: 'Write greeting.txt',
        description: 'greeting.txt says hello.',
      }),
      lead('task_create', { subject: 'Write farewell.txt', blockedBy: ['1'] }),
      lead('task_create', { subject: 'Write CHANGELOG.md' }),
      lead('send_message', {
        to: 'implementer',
        message: '[turn:impl-1] Three tasks are on the list; start with task 1.',
      }),
    ],
    'lead-changes': [
      load('task_request_changes', 'send_message'),
      lead('task_request_changes', { id: '1', note: CHANGES_NOTE }),
      lead('send_message', {
        to: 'implementer',
        message: `[turn:impl-fix] Task 1 needs changes: ${CHANGES_NOTE}`,
      }),
    ],
    'lead-approve-1': [
      load('task_approve', 'send_message'),
      lead('task_approve', { id: '1' }),
      lead('send_message', {
        to: 'implementer',
        message: '[turn:impl-2] Task 1 is approved; do tasks 2 and 3.',
      }),
    ],
    'lead-finish': [
      load('task_approve', 'criterion_evidence', 'shutdown_request'),
      lead('task_approve', { id: '2' }),
      lead('task_approve', { id: '3' }),
      lead('criterion_evidence', { criterion: '1', kind: 'task', ref: '1' }),
      lead('shutdown_request', {
        member: '*',
        reason: '[turn:bye] Every task is approved; please shut down.',
      }),
    ],
  },
  implementer: {
    'impl-1': [
      codex('task_claim', { id: '1' }),
      // Task 2 waits for task 1: this claim is refused.
      codex('task_claim', { id: '2' }),
      codex('task_update', { id: '1', status: 'in_progress' }),
      shell(
        "printf 'hello\\n' > greeting.txt && git add greeting.txt && git commit -q -m 'Add greeting.txt'",
      ),
      codex('task_update', { id: '1', status: 'completed' }),
      codex('task_submit_for_review', { id: '1' }),
      codex('send_message', {
        to: 'reviewer',
        message: '[turn:review-1] Task 1 (greeting.txt) is ready for review.',
      }),
    ],
    'impl-fix': [
      ...doTask(
        '1',
        "printf 'welcome\\n' >> greeting.txt && git commit -q -am 'Add a welcome line'",
      ),
      codex('send_message', { to: 'reviewer', message: '[turn:review-2] Task 1 is fixed.' }),
    ],
    'impl-2': [
      ...doTask(
        '2',
        "printf 'goodbye\\n' > farewell.txt && git add farewell.txt && git commit -q -m 'Add farewell.txt'",
      ),
      ...doTask(
        '3',
        "printf '# Changes\\n' > CHANGELOG.md && git add CHANGELOG.md && git commit -q -m 'Add CHANGELOG.md'",
      ),
      codex('send_message', {
        to: 'reviewer',
        message: '[turn:review-3] Tasks 2 and 3 are ready for review.',
      }),
    ],
    bye: [codex('approve_shutdown', {})],
  },
  reviewer: {
    'review-1': [
      readCommits,
      opencode('send_message', {
        to: 'lead',
        message: `[turn:lead-changes] Task 1: changes needed. ${CHANGES_NOTE}`,
      }),
    ],
    'review-2': [
      readCommits,
      opencode('send_message', {
        to: 'lead',
        message: '[turn:lead-approve-1] Task 1: approved, greeting.txt has both lines.',
      }),
    ],
    'review-3': [
      readCommits,
      opencode('send_message', {
        to: 'lead',
        message: '[turn:lead-finish] Tasks 2 and 3: approved.',
      }),
    ],
    bye: [opencode('approve_shutdown', {})],
  },
};

const MARKER = /\[turn:([\w-]+)\]/g;

function newestMarker(request: MockModelRequest): string | undefined {
  let marker: string | undefined;
  for (const text of findUserTexts(request)) {
    for (const match of text.matchAll(MARKER)) marker = match[1];
  }
  return marker;
}

/** The steps played so far, by `<member>:<marker>`. */
const played = new Map<string, number>();

const script: MockTurnResolver = (request) => {
  const tools = request.body.tools;
  // Titles, summaries and other side requests offer no tools; they get no step.
  if (!Array.isArray(tools) || tools.length === 0) return { text: 'Scripted side answer' };
  const member = MEMBER_OF[request.flavour];
  const marker = newestMarker(request);
  if (member === undefined || marker === undefined) return { text: 'Nothing to do.' };
  const key = `${member}:${marker}`;
  const step = played.get(key) ?? 0;
  played.set(key, step + 1);
  return SCRIPTS[member][marker]?.[step] ?? { text: `${marker} done` };
};

interface TaskFile {
  id: string;
  subject: string;
  status: string;
  owner?: string;
  blockedBy: string[];
  work?: { commit: string; branch: string; member: string };
}

interface StateFile {
  status: string;
  baseBranch?: string;
  members: { name: string; status: string; sessionId?: string; worktreePath?: string }[];
}

const root = realpathSync(os.tmpdir());
let base = '';
let home = '';
let repo = '';
let runId = '';
let server: MockModelServer | undefined;
let env: Record<string, string> = {};
/** The pid of every member process the run recorded, as seen while the run worked. */
const memberPids = new Map<string, number>();

const runFolder = () => path.join(home, 'runtime', runId);
const team = (args: string[], timeoutMs = 180_000) =>
  runCli([...args, '--home', home, '--json'], env, { timeoutMs });
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const readState = () => readJson<StateFile>(path.join(runFolder(), 'state.json'));
const readTask = (id: string): TaskFile | undefined => {
  const file = path.join(runFolder(), 'tasks', `${id}.json`);
  return existsSync(file) ? readJson<TaskFile>(file) : undefined;
};

/** Every message a member received, read or not, oldest first. */
function mailOf(member: string): { from: string; body: string; kind?: string }[] {
  const folder = path.join(runFolder(), 'inboxes', member);
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) =>
      readJson<{ from: string; body: string; kind?: string; timestamp: number }>(
        path.join(entry.parentPath, entry.name),
      ),
    )
    .sort((a, b) => a.timestamp - b.timestamp);
}

/** A task's moves in the run's events log, oldest first: `<actor>:<status>`. */
function taskMoves(id: string): string[] {
  const file = path.join(runFolder(), 'events.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(
      (line) =>
        JSON.parse(line) as {
          actor: string;
          type: string;
          ids?: string[];
          data?: { to?: unknown };
        },
    )
    .filter((event) => event.ids?.includes(id))
    .flatMap((event) => {
      if (event.type === 'task.created') return [`${event.actor}:created`];
      if (event.type === 'task.claimed') return [`${event.actor}:claimed`];
      if (event.type === 'task.status') return [`${event.actor}:${String(event.data?.to)}`];
      return [];
    });
}

function logs(): string {
  return ['lead', 'implementer', 'reviewer', 'supervisor']
    .map((name) => {
      const file = path.join(runFolder(), 'logs', `${name}.log`);
      return `--- ${name}\n${existsSync(file) ? readFileSync(file, 'utf8').slice(-3000) : ''}`;
    })
    .join('\n');
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 480_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${logs()}`);
    await delay(500);
  }
}

/** Records the pid of each member's process (`proc-<pid>-…` sessions) while it runs. */
function notePids(): void {
  for (const member of readState().members) {
    const pid = Number(/^proc-(\d+)-/.exec(member.sessionId ?? '')?.[1]);
    if (Number.isSafeInteger(pid) && !memberPids.has(member.name)) memberPids.set(member.name, pid);
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

describe.skipIf(missing.length > 0)('a mixed team of real agent CLIs, end to end', () => {
  beforeAll(async () => {
    base = await mkdtemp(path.join(root, 'teamkit-mixed-'));
    home = path.join(base, 'home');
    repo = path.join(base, 'repo');
    const folder = path.join(home, 'teams', 'mixed');
    mkdirSync(folder, { recursive: true });
    mkdirSync(repo);
    git('init', '-q', '-b', 'main');
    git('config', 'user.name', 'Mixed Team');
    git('config', 'user.email', 'mixed@teamkit.invalid');
    writeFileSync(path.join(repo, 'README.md'), 'A repository.\n');
    git('add', 'README.md');
    git('commit', '-q', '-m', 'init');

    // The lead and the implementer name their agent in team.yaml, the reviewer in the
    // front matter of its agent file.
    writeFileSync(
      path.join(folder, 'team.yaml'),
      [
        'id: mixed',
        'name: Mixed team',
        'lead: lead',
        'members:',
        '  - name: lead',
        '    role: lead',
        '    agent: claude',
        '    prompt: "[turn:lead] You lead the team."',
        '  - name: implementer',
        '    role: implementer',
        '    agent: codex',
        '    prompt: "[turn:implementer] You implement tasks."',
        '    worktree: true',
        '  - name: reviewer',
        '    role: reviewer',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(folder, 'reviewer.agent.md'),
      [
        '---',
        'agent: opencode',
        'model: mock/mock-model',
        '---',
        '',
        '[turn:reviewer] You review the work.',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({ version: 1, teams: [{ path: '@teams/mixed' }] }),
    );

    server = await startMockModelServer({ script, idleTimeoutMs: 30 * 60_000 });
    // One private home for the three CLIs: their settings do not overlap.
    const agents = path.join(base, 'agents');
    const environments = (['claude', 'codex', 'opencode'] as const).map((cli) =>
      createAgentCliEnvironment(cli, { root: agents, server: server as MockModelServer }),
    );
    env = Object.assign({}, ...environments.map((environment) => environment.env)) as Record<
      string,
      string
    >;
    if (!CLIS.lead.found || !CLIS.implementer.found || !CLIS.reviewer.found) return;
    env.TEAMKIT_CLAUDE_BIN = CLIS.lead.path;
    env.TEAMKIT_CODEX_BIN = CLIS.implementer.path;
    env.TEAMKIT_OPENCODE_BIN = CLIS.reviewer.path;
    // OpenCode migrates its database on first use; do it before members start.
    execFileSync(CLIS.reviewer.path, ['session', 'list'], {
      cwd: base,
      env: { ...process.env, ...env },
      stdio: 'ignore',
      timeout: 180_000,
    });
  }, 300_000);

  afterAll(async () => {
    if (runId !== '') await team(['run', 'stop', runId, '--force']);
    await server?.close();
    if (base !== '' && process.env.TEAMKIT_KEEP_HOST_TEST !== '1')
      await rm(base, { recursive: true, force: true, maxRetries: 5 });
  }, 300_000);

  it('starts each member on its own CLI, with a goal', { timeout: 300_000 }, async () => {
    const planned = await team(['run', 'start', 'mixed', '--repo', repo, '--no-tmux', '--dry-run']);
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    const agents = (planned.json().members as { member: string; agent: string }[]).map(
      (member) => `${member.member}:${member.agent}`,
    );
    expect(agents.sort()).toEqual(['implementer:codex', 'lead:claude', 'reviewer:opencode']);

    const started = await team([
      'run',
      'start',
      'mixed',
      '--repo',
      repo,
      '--no-tmux',
      '--goal',
      'Greet and say goodbye',
      '--criterion',
      'greeting.txt is reviewed and approved',
    ]);
    expect(started.code, started.stdout + started.stderr).toBe(0);
    runId = started.json().runId as string;
    const launch = readFileSync(path.join(runFolder(), 'launch.json'), 'utf8');
    for (const cli of Object.values(CLIS)) if (cli.found) expect(launch).toContain(cli.path);
    notePids();
  });

  it('has the lead (Claude Code) plan three tasks, one blocked by another', {
    timeout: 600_000,
  }, async () => {
    const tasks = await waitFor('the lead to create three tasks', () => {
      notePids();
      const all = ['1', '2', '3'].map(readTask);
      return all.every((task) => task !== undefined) ? (all as TaskFile[]) : undefined;
    });
    expect(tasks.map((task) => task.subject)).toEqual([
      'Write greeting.txt',
      'Write farewell.txt',
      'Write CHANGELOG.md',
    ]);
    expect(tasks.map((task) => task.blockedBy)).toEqual([[], ['1'], []]);
    const toImplementer = await waitFor('the lead to mail the implementer', () =>
      mailOf('implementer').find((message) => message.from === 'lead'),
    );
    expect(toImplementer.body).toContain('start with task 1');
  });

  it('has the implementer (Codex) do task 1, the reviewer (OpenCode) ask for changes once, then approve', {
    timeout: 900_000,
  }, async () => {
    const approved = await waitFor('task 1 to be approved', () => {
      notePids();
      const task = readTask('1');
      return task?.status === 'approved' ? task : undefined;
    });
    expect(approved.owner).toBe('implementer');
    // One review sent back with changes, then approved.
    expect(taskMoves('1')).toEqual([
      'lead:created',
      'implementer:claimed',
      'implementer:in_progress',
      'implementer:completed',
      'implementer:in_review',
      'lead:pending',
      'implementer:claimed',
      'implementer:in_progress',
      'implementer:completed',
      'implementer:in_review',
      'lead:approved',
    ]);
    // The claim of task 2 while task 1 was open was refused.
    const codexResults = server?.requests
      .filter((request) => request.flavour === 'openai-responses')
      .flatMap((request) => findToolResults(request).map((result) => String(result.content)));
    expect(codexResults?.some((text) => /BLOCKED_BY|blocked by/i.test(text))).toBe(true);

    // The work: two commits on the implementer's branch, made in its worktree.
    const worktree = readState().members.find((m) => m.name === 'implementer')?.worktreePath;
    expect(worktree).toBeDefined();
    expect(readFileSync(path.join(worktree as string, 'greeting.txt'), 'utf8')).toBe(
      'hello\nwelcome\n',
    );
    expect(existsSync(path.join(repo, 'greeting.txt'))).toBe(false);
    expect(approved.work?.branch).toMatch(/^teamkit\//);
    expect(
      git('log', '--format=%s', approved.work?.commit as string)
        .trim()
        .split('\n'),
    ).toEqual(['Add a welcome line', 'Add greeting.txt', 'init']);
    // The reviewer read the commits with its own shell tool.
    const reviewerResults = server?.requests
      .filter((request) => request.flavour === 'chat-completions')
      .flatMap((request) => findToolResults(request).map((result) => String(result.content)));
    expect(reviewerResults?.some((text) => text.includes('Add a welcome line'))).toBe(true);

    // The mail that carried it, each in the recipient's inbox.
    const toLead = mailOf('lead').filter((message) => message.from === 'reviewer');
    expect(toLead.map((message) => message.body)).toEqual([
      expect.stringContaining('changes needed'),
      expect.stringContaining('Task 1: approved'),
    ]);
    const fromLead = mailOf('implementer').filter((message) => message.from === 'lead');
    expect(fromLead.some((message) => message.body.includes(CHANGES_NOTE))).toBe(true);
    expect(mailOf('reviewer').filter((message) => message.from === 'implementer').length).toBe(2);
  });

  it('has tasks 2 and 3 done, reviewed and approved, then every member shut down: the run completes', {
    timeout: 900_000,
  }, async () => {
    await waitFor('tasks 2 and 3 to be approved', () => {
      notePids();
      return ['2', '3'].every((id) => readTask(id)?.status === 'approved') ? true : undefined;
    });
    const state = await waitFor('the run to complete', () => {
      const now = readState();
      return now.status === 'completed' ? now : undefined;
    });
    for (const member of state.members) expect(member.status, member.name).toBe('terminated');
    // Both members got the shutdown request and approved it; the lead was told.
    for (const member of ['implementer', 'reviewer']) {
      expect(mailOf(member).some((message) => message.kind === 'shutdown_request')).toBe(true);
    }
    const answers = mailOf('lead').filter((message) => message.kind === 'shutdown_approved');
    expect(answers.map((message) => message.from).sort()).toEqual(['implementer', 'reviewer']);

    // No member process, agent CLI or MCP server of the run is left.
    expect([...memberPids.keys()].sort()).toEqual(['implementer', 'lead', 'reviewer']);
    const left = await waitFor(
      'every process of the run to end',
      () => {
        const running = [
          ...[...memberPids].filter(([, pid]) => alive(pid)).map(([name, pid]) => `${name} ${pid}`),
          ...processesOfHome(home, { commandLine: true }).map(
            ({ pid, commandLine }) => `${pid}: ${commandLine}`,
          ),
        ];
        return running.length === 0 ? running : undefined;
      },
      60_000,
    ).catch((error: unknown) => [String(error)]);
    expect(left).toEqual([]);
  });

  it('merges the approved work into main in dependency order', { timeout: 300_000 }, async () => {
    const merged = await team(['run', 'merge', runId]);
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    const report = merged.json().report as {
      into: string;
      tasks: { id: string; outcome: string }[];
    };
    expect(report.into).toBe('main');
    expect(report.tasks.map((task) => `${task.id}:${task.outcome}`)).toEqual([
      '1:merged',
      '2:merged',
      '3:merged',
    ]);
    expect(git('log', '--first-parent', '--format=%s', 'main').trim().split('\n')).toEqual([
      'Merge task 3: Write CHANGELOG.md',
      'Merge task 2: Write farewell.txt',
      'Merge task 1: Write greeting.txt',
      'init',
    ]);
    expect(git('show', 'main:greeting.txt')).toBe('hello\nwelcome\n');
    expect(git('show', 'main:farewell.txt')).toBe('goodbye\n');
    expect(git('show', 'main:CHANGELOG.md')).toBe('# Changes\n');
  });

  it('reports the tasks, the turns, the criterion and the merge', {
    timeout: 300_000,
  }, async () => {
    const shown = await team(['run', 'report', runId]);
    expect(shown.code, shown.stdout + shown.stderr).toBe(0);
    const report = JSON.stringify(shown.json());
    for (const expected of [
      'completed',
      'Write greeting.txt',
      'Write farewell.txt',
      'Write CHANGELOG.md',
      'greeting.txt is reviewed and approved',
      'implementer',
      'reviewer',
    ])
      expect(report).toContain(expected);
    const text = await runCli(['run', 'report', runId, '--home', home], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('main');
  });
});
