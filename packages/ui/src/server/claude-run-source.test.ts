import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { withClaudeLock } from '@teamkit/claude-code';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunDelta, RunSnapshot, RunSummary } from '../protocol.js';
import { type SeededRun, seedRun } from '../test-support/seed-run.js';
import { rawRequest, readEvents, signIn } from '../test-support/ui-http.js';
import {
  claudeEntry,
  claudeInboxFile,
  claudeTask,
  plantClaudeTeam,
  startLeadProcess,
  writeClaudeTask,
} from '../testing/plant-claude-team.js';
import { createClaudeRunSource } from './claude-run-source.js';
import type { LiveRun } from './live-run.js';
import { createTeamkitRunSource } from './run-source.js';
import { startUiServer, type UiServer } from './ui-server.js';

const LIVE = 'session-7a052ba9';
const ENDED = 'session-0badc0de';
const GONE = 'session-5eed5eed';

let home: string;
let configDir: string;
let teamkitRun: SeededRun;
let server: UiServer;
let cookie: string;
let lead: ReturnType<typeof startLeadProcess>;
const opened: LiveRun[] = [];

// Torn files are read twice, 5 ms apart, before they are reported: the tests stay quick.
const source = () =>
  createClaudeRunSource({ configDir, retry: { attempts: 2, delayMs: 5 }, debounceMs: 20 });

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-ui-claude-home-'));
  configDir = await mkdtemp(path.join(os.tmpdir(), 'teamkit-ui-claude-'));
  teamkitRun = await seedRun(home, ['writer']);
  lead = startLeadProcess();
  await plantClaudeTeam(configDir, LIVE, { leadPid: lead.pid, teammates: ['worker'] });
  await writeClaudeTask(configDir, LIVE, claudeTask('1', { subject: 'Write the README' }));
  await writeClaudeTask(
    configDir,
    LIVE,
    claudeTask('2', { subject: 'Review it', status: 'in_progress', owner: 'worker' }),
  );
  await writeClaudeTask(configDir, LIVE, claudeTask('3', { status: 'completed', owner: 'worker' }));
  await writeFile(
    claudeInboxFile(configDir, LIVE, 'team-lead'),
    JSON.stringify([claudeEntry('worker', 'Done with #3', '00000000-0000-4000-8000-000000000001')]),
  );
  // A lead that ended without its team folder being removed (a crash), and a team whose
  // folder Claude Code removed, leaving only its task list.
  const ended = startLeadProcess();
  await ended.stop();
  await plantClaudeTeam(configDir, ENDED, { leadPid: ended.pid, teammates: ['worker'] });
  await writeClaudeTask(configDir, ENDED, claudeTask('1', { status: 'completed' }));
  await writeClaudeTask(configDir, GONE, claudeTask('1', { status: 'in_progress' }));
  server = await startUiServer({
    store: createFileStore({ root: home }),
    sources: [createTeamkitRunSource({ store: createFileStore({ root: home }), home }), source()],
    home,
    stopRun: async () => undefined,
    reconcileMs: 60_000,
  });
  cookie = await signIn(server.port, server.loginUrl());
});

afterEach(async () => {
  for (const live of opened.splice(0)) await live.close();
});

afterAll(async () => {
  await server?.close();
  await lead?.stop();
  await rm(home, { recursive: true, force: true });
  await rm(configDir, { recursive: true, force: true });
});

const act = (team: string, action: string, body: unknown) =>
  rawRequest(server.port, {
    method: 'POST',
    path: `/api/runs/claude-code/${encodeURIComponent(team)}/actions/${action}`,
    headers: { Cookie: cookie, Origin: server.origin, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

async function openTeam(team: string, reconcileMs = 3_600_000): Promise<LiveRun> {
  const live = await source().openLive(team, { reconcileMs });
  opened.push(live);
  return live;
}

/** Resolves with the first delta `live` sends that `match` accepts. */
function nextDelta(live: LiveRun, match: (delta: RunDelta) => boolean): Promise<RunDelta> {
  return new Promise((resolve) => {
    const stop = live.subscribe((delta) => {
      if (!match(delta)) return;
      stop();
      resolve(delta);
    });
  });
}

describe('Claude Code teams in team ui', () => {
  it('lists live and finished Claude Code teams beside Teamkit runs', async () => {
    const response = await rawRequest(server.port, {
      path: '/api/runs',
      headers: { Cookie: cookie },
    });
    const { runs, problems } = JSON.parse(response.body) as {
      runs: RunSummary[];
      problems: string[];
    };
    expect(problems).toEqual([]);
    expect(runs.find((run) => run.source === 'teamkit')?.runId).toBe(teamkitRun.runId);
    // Live teams first; the ended ones by their last change.
    const claude = runs.filter((run) => run.source === 'claude-code');
    expect([claude[0]?.runId, claude[0]?.status]).toEqual([LIVE, 'live']);
    expect(claude.slice(1).map((run) => [run.runId, run.status])).toEqual(
      expect.arrayContaining([
        [ENDED, 'finished'],
        [GONE, 'finished'],
      ]),
    );
    expect(claude).toHaveLength(3);
    const live = claude[0];
    expect(live?.progress).toEqual({ done: 1, total: 3 });
    expect(live?.members).toBe(2);
    expect(live?.actions).toEqual(['createTask', 'send']);
    const ended = claude.find((run) => run.runId === ENDED);
    expect(ended?.actions).toEqual([]);
    expect(ended?.unavailable.send).toContain('has ended');
  });

  it('keeps the list up to date from one watch: a team that starts shows up', async () => {
    const listed = async () => {
      const response = await rawRequest(server.port, {
        path: '/api/runs',
        headers: { Cookie: cookie },
      });
      return (JSON.parse(response.body) as { runs: RunSummary[] }).runs;
    };
    const team = 'session-0a0a0a0a';
    expect((await listed()).some((run) => run.runId === team)).toBe(false);
    await plantClaudeTeam(configDir, team, { leadPid: lead.pid });
    await expect
      .poll(async () => (await listed()).find((run) => run.runId === team)?.status, {
        timeout: 30_000,
      })
      .toBe('live');
  });

  it('shows what the files hold: members, three columns of tasks, waiting mail, and says what they cannot', async () => {
    const events = await readEvents(
      server.port,
      `/api/runs/claude-code/${LIVE}/stream`,
      cookie,
      (seen) => seen.length >= 1,
    );
    const snapshot = events[0]?.data as RunSnapshot;
    expect(snapshot.header).toMatchObject({
      source: 'claude-code',
      runId: LIVE,
      status: 'live',
      actingAs: 'teamkit',
      actions: ['createTask', 'send'],
      offers: ['createTask', 'send'],
      views: ['board', 'members', 'messages'],
      columns: ['todo', 'in-progress', 'done'],
    });
    expect(snapshot.header.notes?.[0]).toContain('Message history is not in Claude Code');
    expect(snapshot.tasks.map((task) => [task.id, task.status, task.owner])).toEqual([
      ['1', 'pending', undefined],
      ['2', 'in_progress', 'worker'],
      ['3', 'completed', 'worker'],
    ]);
    expect(snapshot.members.map((member) => [member.name, member.isLead, member.unread])).toEqual([
      ['team-lead', true, 1],
      ['worker', false, 0],
    ]);
    expect(snapshot.messages).toMatchObject([
      { from: 'worker', to: ['team-lead'], body: 'Done with #3', waiting: true },
    ]);
    expect(snapshot.events).toEqual([]);
  });

  it('moves a card when its task file changes, and marks mail delivered when it leaves the inbox', async () => {
    const live = await openTeam(LIVE);
    const moved = nextDelta(live, (delta) =>
      (delta.tasks?.upsert ?? []).some((task) => task.id === '1' && task.status === 'in_progress'),
    );
    await writeClaudeTask(
      configDir,
      LIVE,
      claudeTask('1', { subject: 'Write the README', status: 'in_progress', owner: 'worker' }),
    );
    expect((await moved).tasks?.remove).toEqual([]);
    const delivered = nextDelta(live, (delta) =>
      (delta.messages ?? []).some((message) => message.waiting === false),
    );
    const inbox = claudeInboxFile(configDir, LIVE, 'team-lead');
    const before = await readFile(inbox, 'utf8');
    await writeFile(inbox, '[]');
    try {
      const delta = await delivered;
      expect(delta.messages?.[0]?.body).toBe('Done with #3');
      expect(delta.members?.find((member) => member.name === 'team-lead')?.unread).toBe(0);
      expect(live.snapshot().messages.map((message) => message.waiting)).toEqual([false]);
    } finally {
      await writeFile(inbox, before);
      await writeClaudeTask(configDir, LIVE, claudeTask('1', { subject: 'Write the README' }));
    }
  });

  it('keeps the card of a task file torn by an in-place rewrite, and reports it while it stays torn', async () => {
    const live = await openTeam(LIVE);
    const file = await writeClaudeTask(configDir, LIVE, '{"id": "2", "subj', '2');
    try {
      await live.reconcile();
      const snapshot = live.snapshot();
      expect(snapshot.tasks.find((task) => task.id === '2')?.subject).toBe('Review it');
      expect(snapshot.problems.join('\n')).toContain(file);
      await writeClaudeTask(
        configDir,
        LIVE,
        claudeTask('2', { subject: 'Review it again', status: 'completed', owner: 'worker' }),
      );
      await live.reconcile();
      const healed = live.snapshot();
      expect(healed.tasks.find((task) => task.id === '2')).toMatchObject({
        subject: 'Review it again',
        status: 'completed',
      });
      expect(healed.problems).toEqual([]);
    } finally {
      await writeClaudeTask(
        configDir,
        LIVE,
        claudeTask('2', { subject: 'Review it', status: 'in_progress', owner: 'worker' }),
      );
    }
  });

  it('sends a message into the inbox under Claude Code’s lock, and creates a task with the next id', async () => {
    const inbox = claudeInboxFile(configDir, LIVE, 'worker');
    await writeFile(inbox, '[]');
    // Claude Code holds the inbox's lock: the page's message waits for it, and an entry
    // Claude Code adds meanwhile is kept.
    let released = 0;
    let answered = 0;
    let sent: Promise<unknown> | undefined;
    await withClaudeLock(inbox, `${inbox}.lock`, async () => {
      sent = act(LIVE, 'send', { to: 'worker', body: 'Please look at #1', summary: 'look' }).then(
        (response) => {
          answered = Date.now();
          return response;
        },
      );
      // Time for the request to reach the lock; the checks below hold however long it takes.
      await delay(500);
      await writeFile(
        inbox,
        JSON.stringify([
          claudeEntry('team-lead', 'Start on #1', '00000000-0000-4000-8000-00000000000a'),
        ]),
      );
      released = Date.now();
    });
    const response = (await sent) as Awaited<ReturnType<typeof act>>;
    expect(response.status).toBe(200);
    expect(answered).toBeGreaterThanOrEqual(released);
    const entries = JSON.parse(await readFile(inbox, 'utf8')) as { from: string; text: string }[];
    expect(entries.map((entry) => [entry.from, entry.text])).toEqual([
      ['team-lead', 'Start on #1'],
      ['teamkit', 'Please look at #1'],
    ]);
    const created = await act(LIVE, 'createTask', {
      subject: 'Write the docs',
      description: 'cli.md',
    });
    expect(created.status).toBe(200);
    const task = JSON.parse(
      await readFile(path.join(configDir, 'tasks', LIVE, '4.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(task).toEqual({
      id: '4',
      subject: 'Write the docs',
      description: 'cli.md',
      status: 'pending',
      blocks: [],
      blockedBy: [],
    });
  });

  it('refuses every other write, unknown recipients, broadcast and ended teams, and writes nothing', async () => {
    const files = async () => ({
      inboxes: (await readdir(path.join(configDir, 'teams', LIVE, 'inboxes'))).sort(),
      tasks: (await readdir(path.join(configDir, 'tasks', LIVE))).sort(),
      ended: (await readdir(path.join(configDir, 'teams', ENDED, 'inboxes'))).sort(),
    });
    const before = await files();
    const refusals: [string, string, unknown, number, string][] = [
      [LIVE, 'send', { to: 'wroker', body: 'typo' }, 404, 'UNKNOWN_RECIPIENT'],
      [LIVE, 'send', { to: '*', body: 'all of you' }, 403, 'BROADCAST_UNSUPPORTED'],
      [LIVE, 'send', { to: 'worker', body: 'hi', kind: 'announcement' }, 400, 'INVALID_INPUT'],
      [LIVE, 'createTask', { subject: 'After 1', blockedBy: '1' }, 400, 'INVALID_INPUT'],
      [LIVE, 'approve', { taskId: '3' }, 400, 'INVALID_INPUT'],
      [LIVE, 'stopRun', {}, 400, 'INVALID_INPUT'],
      [ENDED, 'send', { to: 'worker', body: 'anyone?' }, 403, 'CLAUDE_TEAM_NOT_LIVE'],
      [GONE, 'createTask', { subject: 'Too late' }, 403, 'CLAUDE_TEAM_NOT_LIVE'],
      ['../../escape', 'createTask', { subject: 'Escape' }, 400, 'INVALID_INPUT'],
    ];
    for (const [team, action, body, status, code] of refusals) {
      const response = await act(team, action, body);
      expect([team, action, response.status]).toEqual([team, action, status]);
      expect(JSON.parse(response.body).error.code).toBe(code);
    }
    expect(await files()).toEqual(before);
  });

  it('shows a team as finished when its lead ends, and offers no write any more', async () => {
    const leadOfItsOwn = startLeadProcess();
    const team = 'session-1eadbeef';
    await plantClaudeTeam(configDir, team, { leadPid: leadOfItsOwn.pid, teammates: ['worker'] });
    try {
      const live = await openTeam(team, 50);
      expect(live.snapshot().header.status).toBe('live');
      const ended = nextDelta(live, (delta) => delta.header?.status === 'finished');
      await leadOfItsOwn.stop();
      const { header } = await ended;
      expect(header?.actions).toEqual([]);
      expect(header?.statusReason).toContain('not running');
    } finally {
      await leadOfItsOwn.stop();
    }
  });

  it('answers a team that is not there with its typed error', async () => {
    const response = await rawRequest(server.port, {
      path: `/api/runs/claude-code/session-00000000/stream`,
      headers: { Cookie: cookie },
    });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body).error.code).toBe('CLAUDE_TEAM_NOT_FOUND');
  });
});
