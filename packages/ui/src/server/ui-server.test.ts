import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createMemberClient, createTaskList, openRun } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunDelta, RunSnapshot } from '../protocol.js';
import { type SeededRun, seedRun } from '../test-support/seed-run.js';
import { rawRequest, readEvents, signIn } from '../test-support/ui-http.js';
import type { LiveRunSource } from './live-run-source.js';
import { createTeamkitRunSource, type RunSource } from './run-source.js';
import { startUiServer, type UiServer } from './ui-server.js';

let home: string;
let run: SeededRun;
let server: UiServer;
let cookie: string;
const stops: string[] = [];

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-ui-server-'));
  run = await seedRun(home, ['writer', 'tester']);
  server = await startUiServer({
    store: createFileStore({ root: home }),
    sources: [createTeamkitRunSource({ store: createFileStore({ root: home }), home })],
    home,
    stopRun: async ({ runId }) => {
      stops.push(runId);
      return { runId };
    },
    reconcileMs: 60_000,
  });
  cookie = await signIn(server.port, server.loginUrl());
});

afterAll(async () => {
  await server?.close();
  await rm(home, { recursive: true, force: true });
});

const own = () => ({ Origin: server.origin, 'Content-Type': 'application/json' });
const post = (action: string, body: unknown, headers: Record<string, string>) =>
  rawRequest(server.port, {
    method: 'POST',
    path: `/api/runs/teamkit/${run.runId}/actions/${action}`,
    headers,
    body: JSON.stringify(body),
  });

describe('team ui server: sign-in', () => {
  it('refuses the page and the API without a session', async () => {
    const page = await rawRequest(server.port, { path: '/' });
    expect(page.status).toBe(401);
    expect(page.body).toContain('team ui');
    const api = await rawRequest(server.port, { path: '/api/runs' });
    expect(api.status).toBe(401);
    expect(JSON.parse(api.body).error.code).toBe('UNAUTHORIZED');
  });

  it('exchanges a login token once for an HttpOnly SameSite=Strict cookie', async () => {
    const url = new URL(server.loginUrl());
    const first = await rawRequest(server.port, { path: `/${url.search}` });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const again = await rawRequest(server.port, { path: `/${url.search}` });
    expect(again.status).toBe(401);
    const wrong = await rawRequest(server.port, { path: '/?token=not-a-token' });
    expect(wrong.status).toBe(401);
  });

  it('serves the page with a strict CSP and no inline script or style', async () => {
    const page = await rawRequest(server.port, { path: '/', headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.body).not.toMatch(/<style|style=/);
    const script = await rawRequest(server.port, { path: '/assets/app.js' });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
  });

  it('refuses a foreign Host on every request (DNS rebinding), even with the cookie', async () => {
    for (const target of ['/', '/api/runs', `/api/runs/teamkit/${run.runId}/stream`]) {
      const response = await rawRequest(server.port, {
        path: target,
        headers: { Host: `attacker.example:${server.port}`, Cookie: cookie },
      });
      expect(response.status).toBe(421);
      expect(JSON.parse(response.body).error.code).toBe('BAD_HOST');
    }
  });
});

describe('team ui server: actions', () => {
  it('refuses an action without the right Origin and changes nothing', async () => {
    const before = (
      await createTaskList({
        store: createFileStore({ root: home }),
        home,
        runId: run.runId,
      }).listTasks()
    ).tasks.length;
    const subject = { subject: 'from elsewhere' };
    const foreign = await post('createTask', subject, {
      ...own(),
      Cookie: cookie,
      Origin: 'http://attacker.example',
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.code).toBe('FORBIDDEN_ORIGIN');
    const none = await post('createTask', subject, {
      Cookie: cookie,
      'Content-Type': 'application/json',
    });
    expect(none.status).toBe(403);
    const noCookie = await post('createTask', subject, own());
    expect(noCookie.status).toBe(401);
    const after = (
      await createTaskList({
        store: createFileStore({ root: home }),
        home,
        runId: run.runId,
      }).listTasks()
    ).tasks.length;
    expect(after).toBe(before);
  });

  it('acts as the lead through the core, and shows the core error of an illegal move', async () => {
    const created = await post(
      'createTask',
      { subject: 'Write the parser', role: 'writer' },
      { ...own(), Cookie: cookie },
    );
    expect(created.status).toBe(200);
    const { task } = JSON.parse(created.body).result as { task: { id: string } };
    const stored = await createTaskList({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
    }).getTask(task.id);
    expect(stored).toMatchObject({ subject: 'Write the parser', status: 'pending' });
    expect(stored.metadata?.role).toBe('writer');

    const illegal = await post('approve', { taskId: task.id }, { ...own(), Cookie: cookie });
    expect(illegal.status).toBeGreaterThanOrEqual(400);
    const error = JSON.parse(illegal.body).error;
    expect(error.code).toBe('INVALID_TRANSITION');
    expect(error.message).toContain('pending');
    expect(
      (
        await createTaskList({
          store: createFileStore({ root: home }),
          home,
          runId: run.runId,
        }).getTask(task.id)
      ).status,
    ).toBe('pending');
  });

  it('refuses run ids that are not ids before they reach a path', async () => {
    for (const id of ['..', '..%2F..%2Fetc', 'not-a-uuid']) {
      const stream = await rawRequest(server.port, {
        path: `/api/runs/teamkit/${id}/stream`,
        headers: { Cookie: cookie },
      });
      expect(stream.status).toBeGreaterThanOrEqual(400);
      const action = await rawRequest(server.port, {
        method: 'POST',
        path: `/api/runs/teamkit/${id}/actions/createTask`,
        headers: { ...own(), Cookie: cookie },
        body: JSON.stringify({ subject: 'x' }),
      });
      expect(action.status).toBeGreaterThanOrEqual(400);
      expect(JSON.parse(action.body).ok).toBe(false);
    }
    const unknown = await post('mergeAll', {}, { ...own(), Cookie: cookie });
    expect(JSON.parse(unknown.body).error.code).toBe('INVALID_INPUT');
  });

  it('sends a message as the user, requests changes with a note to the owner, stops the run', async () => {
    const lead = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
      member: 'lead',
    });
    const writer = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
      member: 'writer',
    });
    const task = await lead.createTask({ subject: 'Review me' });
    await writer.claimTask(task.id);
    await writer.startTask(task.id);
    await writer.completeTask(task.id);
    await writer.submitForReview(task.id);
    const asked = await post(
      'requestChanges',
      { taskId: task.id, note: 'Handle the empty input.' },
      { ...own(), Cookie: cookie },
    );
    expect(asked.status).toBe(200);
    const after = await lead.getTask(task.id);
    expect(after).toMatchObject({ status: 'pending', needsFix: true, owner: 'writer' });
    expect(after.reviewNote).toBe('Handle the empty input.');
    const mail = await writer.inbox();
    expect(mail.map((message) => message.body)).toContain(
      `changes requested on task ${task.id}: Handle the empty input.`,
    );
    const done = await lead.createTask({ subject: 'Approve me straight from done' });
    await writer.claimTask(done.id);
    await writer.startTask(done.id);
    await writer.completeTask(done.id);
    const direct = await post('approve', { taskId: done.id }, { ...own(), Cookie: cookie });
    expect(direct.status).toBe(200);
    expect((await lead.getTask(done.id)).status).toBe('approved');
    // The page's fields are checked by the shared tool's schema, as `team send --kind` is.
    const badKind = await post(
      'send',
      { to: 'tester', body: 'hello', kind: 'shutdown_request' },
      { ...own(), Cookie: cookie },
    );
    expect(badKind.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(badKind.body).error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(JSON.parse(badKind.body).error.message).toContain('kind');
    const badStop = await post('stopRun', { force: 'yes' }, { ...own(), Cookie: cookie });
    expect(JSON.parse(badStop.body).error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(stops).toEqual([]);
    const sent = await post('send', { to: 'tester', body: 'hello' }, { ...own(), Cookie: cookie });
    expect(JSON.parse(sent.body).result.delivered).toEqual(['tester']);
    const tester = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
      member: 'tester',
    });
    expect((await tester.inbox()).find((message) => message.body === 'hello')?.from).toBe('user');
    // Merge is wired to the core: this seeded run has no repository, so it is refused as such.
    const merged = await post('merge', { dryRun: true }, { ...own(), Cookie: cookie });
    expect(JSON.parse(merged.body).error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(JSON.parse(merged.body).error.message).toContain('no repository');
    const stopped = await post('stopRun', {}, { ...own(), Cookie: cookie });
    expect(stopped.status).toBe(200);
    expect(stops).toEqual([run.runId]);
    expect(
      (
        await openRun({
          home: home,
          runId: run.runId,
          store: createFileStore({ root: home }),
        }).state.read()
      ).status,
    ).toBe('active');
  });
});

describe('team ui server: live stream', () => {
  it('sends a snapshot, then deltas of what changed on disk', async () => {
    const lead = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
      member: 'lead',
    });
    const tester = createMemberClient({
      store: createFileStore({ root: home }),
      home,
      runId: run.runId,
      member: 'tester',
    });
    const task = await lead.createTask({ subject: 'Watch me move' });
    let triggered = false;
    const events = await readEvents(
      server.port,
      `/api/runs/teamkit/${run.runId}/stream`,
      cookie,
      (seen) => {
        if (seen.length >= 1 && !triggered) {
          triggered = true;
          void (async () => {
            await tester.claimTask(task.id);
            await tester.send({ to: 'lead', body: 'claimed it' });
          })();
        }
        const deltas = seen.slice(1).map((entry) => entry.data as RunDelta);
        return (
          deltas.some((delta) =>
            delta.tasks?.upsert.some((card) => card.id === task.id && card.status === 'claimed'),
          ) &&
          deltas.some((delta) =>
            delta.messages?.some((message) => message.body === 'claimed it'),
          ) &&
          deltas.some((delta) => delta.events?.some((event) => event.type === 'task.claimed'))
        );
      },
    );
    expect(events[0]?.event).toBe('snapshot');
    const snapshot = events[0]?.data as RunSnapshot;
    expect(snapshot.header.runId).toBe(run.runId);
    expect(snapshot.tasks.find((card) => card.id === task.id)?.status).toBe('pending');
    expect(snapshot.members.map((member) => member.name)).toEqual(run.members);
    // Deltas name only what changed: never the whole task list.
    for (const entry of events.slice(1)) {
      const delta = entry.data as RunDelta;
      expect(delta.tasks?.upsert.length ?? 0).toBeLessThanOrEqual(2);
    }
  });

  it('lists the runs of every source it can read, and names the one it cannot', async () => {
    const broken: LiveRunSource = {
      id: 'claude-code',
      label: 'Claude Code',
      listRuns: async () => {
        throw new Error('EACCES: permission denied, scandir');
      },
      openLive: async () => {
        throw new Error('not used');
      },
      runAction: async () => undefined,
    };
    const own = await startUiServer({
      store: createFileStore({ root: home }),
      sources: [createTeamkitRunSource({ store: createFileStore({ root: home }), home }), broken],
      home,
      stopRun: async () => undefined,
    });
    try {
      const session = await signIn(own.port, own.loginUrl());
      const response = await rawRequest(own.port, {
        path: '/api/runs',
        headers: { Cookie: session },
      });
      const body = JSON.parse(response.body) as { runs: { runId: string }[]; problems: string[] };
      expect(response.status).toBe(200);
      expect(body.runs.map((listed) => listed.runId)).toContain(run.runId);
      expect(body.problems).toEqual(['Claude Code: EACCES: permission denied, scandir']);
    } finally {
      await own.close();
    }
  });

  it('starts reading a run when a link to it is made, and reads it once for the page', async () => {
    const source = createTeamkitRunSource({ store: createFileStore({ root: home }), home });
    let opened = 0;
    const counting: RunSource = {
      ...source,
      async watchRun(runId) {
        opened += 1;
        return source.watchRun(runId);
      },
    };
    const own = await startUiServer({
      store: createFileStore({ root: home }),
      sources: [counting],
      home,
      stopRun: async () => undefined,
    });
    try {
      // A link to nothing opens nothing and breaks nothing.
      own.loginUrl('#/run/teamkit/not-a-run');
      const url = own.loginUrl(`#/run/teamkit/${run.runId}/board`);
      await expect.poll(() => opened).toBe(2);
      const session = await signIn(own.port, url);
      const events = await readEvents(
        own.port,
        `/api/runs/teamkit/${run.runId}/stream`,
        session,
        (seen) => seen.length >= 1,
      );
      expect((events[0]?.data as RunSnapshot | undefined)?.header.runId).toBe(run.runId);
      expect(opened).toBe(2);
    } finally {
      await own.close();
    }
  });
});
