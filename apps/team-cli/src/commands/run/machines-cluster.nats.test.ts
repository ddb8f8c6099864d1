import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createNetworkLab,
  findNetworkNamespaces,
  type NatsCluster,
  type NetworkLab,
  startNatsCluster,
} from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../exit-codes.js';
import { CLI_BIN, createTempHome } from '../../test-support/run-cli.js';
import {
  createRepoWithClone,
  natsServerMissing,
  waitFor,
} from '../../test-support/shared-store.js';
import { writeTestTeam } from '../../test-support/test-team.js';

// Several "machines" on one box: network namespaces n1-n3 each run one node of a NATS
// cluster (streams with three replicas), machine A runs the lead and w-a, machine B runs
// w-b, each with its own home and clone. The members are scripted agents that act only
// through `team`. One NATS node is killed mid-run, then B is cut off and plugged back in.
function netnsMissing(): string | undefined {
  const found = findNetworkNamespaces();
  if (found.found) return undefined;
  process.stderr.write(`skipping the NATS cluster test: ${found.reason}\n`);
  return found.reason;
}
const missing = natsServerMissing() ?? netnsMissing();
const MEMBER = fileURLToPath(new URL('./__fixtures__/cluster-member.mjs', import.meta.url));
const REPLICATED = fileURLToPath(new URL('./__fixtures__/replicated-store.mjs', import.meta.url));
// Long enough that A never gives up on w-b while B is cut off for a few seconds.
const STALE_MS = 120_000;

let lab: NetworkLab;
let cluster: NatsCluster;
let folder: string;
let cleanup: () => Promise<void>;
let work: string;
const homes = { a: '', b: '' };
let runId: string;
/** The id of the message the user sent to w-b while B was cut off. */
let cutOffMessage = '';

interface Run {
  code: number;
  json: () => Record<string, unknown>;
  text: string;
}

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of ['TEAMKIT_HOME', 'TEAMKIT_RUN', 'TEAMKIT_MEMBER', 'TEAMKIT_TOKEN', 'TMUX'])
    delete env[name];
  return { ...env, ...extra };
}

/** `team <args> --json` on machine `on`, as the user of that machine's home, or as `member`. */
async function team(
  on: 'a' | 'b',
  args: string[],
  as?: Record<string, string>,
  timeoutMs = 90_000,
): Promise<Run> {
  const env =
    as === undefined
      ? baseEnv({
          TEAMKIT_STORE: cluster.urls,
          TEAMKIT_HEARTBEAT_STALE_MS: String(STALE_MS),
          TEAMKIT_HOME: homes[on],
        })
      : baseEnv(as);
  const ran = await lab.run(on, [process.execPath, CLI_BIN, ...args, '--json'], {
    env,
    timeoutMs,
  });
  return {
    code: ran.code,
    text: ran.stdout + ran.stderr,
    json: () => JSON.parse(ran.stdout) as Record<string, unknown>,
  };
}

async function ok(on: 'a' | 'b', args: string[]): Promise<Record<string, unknown>> {
  const ran = await team(on, args);
  expect(ran.code, `team ${args.join(' ')} on ${on}: ${ran.text}`).toBe(0);
  return ran.json();
}

interface ListedTask {
  id: string;
  subject: string;
  status: string;
  owner?: string;
}

async function tasks(on: 'a' | 'b' = 'a'): Promise<ListedTask[]> {
  return (await ok(on, ['task', 'list', runId])).tasks as ListedTask[];
}

async function createTask(subject: string): Promise<string> {
  return ((await ok('a', ['task', 'create', runId, subject])).task as { id: string }).id;
}

async function approved(ids: string[]): Promise<ListedTask[]> {
  return waitFor(
    `tasks ${ids.join(', ')} to be approved`,
    async () => {
      const listed = (await tasks()).filter((task) => ids.includes(task.id));
      return listed.every((task) => task.status === 'approved') ? listed : undefined;
    },
    180_000,
  );
}

interface Step {
  event: string;
  id?: string;
  body?: string;
  error?: string;
}

function steps(member: string): Step[] {
  const file = path.join(work, `${member}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Step);
}

/** A member's `TEAMKIT_*` variables, from its process's start environment (as its host set them). */
async function memberEnv(member: string): Promise<Record<string, string>> {
  const shown = await ok('a', ['run', 'status', runId]);
  const { members } = shown.status as { members: { name: string; sessionId?: string }[] };
  const sessionId = members.find((entry) => entry.name === member)?.sessionId;
  const pid = Number(/^proc-(\d+)-/.exec(sessionId ?? '')?.[1]);
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((entry) => entry.startsWith('TEAMKIT_'))
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

describe.skipIf(missing !== undefined)(
  'a run shared by two machines through a NATS cluster',
  () => {
    beforeAll(async () => {
      lab = await createNetworkLab(['n1', 'n2', 'n3', 'a', 'b']);
      cluster = await startNatsCluster(['n1', 'n2', 'n3'], { lab });
      // The store's streams get three replicas before any `team` command opens it.
      const replicated = await lab.run('a', [process.execPath, REPLICATED, cluster.urls], {
        timeoutMs: 120_000,
      });
      expect(replicated.code, replicated.stderr).toBe(0);
      expect(JSON.parse(replicated.stdout)).toEqual({ KV_teamkit: 3, 'teamkit-logs': 3 });

      ({ home: folder, cleanup } = await createTempHome());
      homes.a = path.join(folder, 'machine-a');
      homes.b = path.join(folder, 'machine-b');
      work = path.join(folder, 'members');
      for (const dir of [homes.a, homes.b, work]) await mkdir(dir);
      const { repo, clone } = await createRepoWithClone(folder);
      await writeTestTeam(homes.a, {
        id: 'lab',
        lead: 'lead',
        members: ['lead', 'w-a', 'w-b'],
        worktrees: ['w-a', 'w-b'],
      });
      const agent = `${process.execPath} ${MEMBER} ${work}`;
      const start = await ok('a', [
        'run',
        'start',
        'lab',
        '--repo',
        repo,
        '--agent-cmd',
        agent,
        '--elsewhere',
        'w-b',
      ]);
      runId = start.runId as string;
      expect(start.spawned).toEqual(['lead', 'w-a']);
      const joined = await ok('b', [
        'run',
        'join',
        runId,
        'w-b',
        '--repo',
        clone,
        '--agent-cmd',
        agent,
      ]);
      expect(joined.spawned).toEqual(['w-b']);
    }, 240_000);

    afterAll(async () => {
      if (runId !== undefined && lab !== undefined) {
        await lab.join('b').catch(() => {});
        await team('a', ['run', 'stop', runId, '--force'], undefined, 60_000).catch(() => {});
      }
      // Every process left in the machines (members, supervisors, NATS nodes) ends with them.
      await lab?.close();
      await cluster?.close();
      await cleanup?.();
    }, 120_000);

    it('runs tasks on both machines and shows the whole run from either', async () => {
      const ids = [
        await createTask('w-a: write the notes'),
        await createTask('w-b: write the tests'),
        await createTask('anyone: tidy the readme'),
      ];
      const done = await approved(ids);
      expect(done.find((task) => task.id === ids[0])?.owner).toBe('w-a');
      expect(done.find((task) => task.id === ids[1])?.owner).toBe('w-b');
      // B's member lives in B's home and works in B's clone.
      const wb = await memberEnv('w-b');
      expect(wb.TEAMKIT_HOME).toBe(homes.b);
      const fromA = await ok('a', ['board', runId]);
      const fromB = await ok('b', ['board', runId]);
      expect(fromB.columns).toEqual(fromA.columns);
    }, 240_000);

    it('goes on when one NATS node is killed', async () => {
      const [n1] = cluster.nodes;
      await n1?.kill();
      expect(n1?.running).toBe(false);
      const ids = [
        await createTask('w-a: after the node died'),
        await createTask('w-b: after the node died'),
        await createTask('anyone: after the node died'),
      ];
      const done = await approved(ids);
      expect(done.find((task) => task.id === ids[1])?.owner).toBe('w-b');
    }, 240_000);

    it('fails B with STORE_UNAVAILABLE while it is cut off, and resumes it when it is back', async () => {
      const wb = await memberEnv('w-b');
      await lab.cut('b');
      const forA = await createTask('w-a: while B is cut off');
      const forB = await createTask('w-b: while B is cut off');
      // The user on B, and w-b itself, get the typed error; nothing they try is applied.
      const listed = await team('b', ['task', 'list', runId]);
      expect(listed.code, listed.text).toBe(EXIT_CODES.internal);
      expect(listed.json().error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      const claim = await team('b', ['task', 'claim', forA], wb);
      expect(claim.code, claim.text).toBe(EXIT_CODES.internal);
      expect(claim.json().error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      const sent = await ok('a', ['send', runId, '--to', 'w-b', 'sent while B was cut off']);
      cutOffMessage = sent.messageId as string;
      expect(cutOffMessage).toMatch(/^[0-9a-f-]{36}$/);
      // w-b's own loop hits the error too.
      await waitFor('w-b to see STORE_UNAVAILABLE', async () =>
        steps('w-b').some((step) => step.error === 'STORE_UNAVAILABLE') ? true : undefined,
      );
      // A goes on meanwhile: w-a's task is done, w-b's waits.
      await approved([forA]);
      expect((await tasks()).find((task) => task.id === forB)?.status).toBe('pending');

      await lab.join('b');
      const [taskB] = await approved([forB]);
      expect(taskB?.owner).toBe('w-b');
      await waitFor('w-b to read the message sent while it was cut off', async () =>
        steps('w-b').some((step) => step.event === 'received' && step.id === cutOffMessage)
          ? true
          : undefined,
      );
      expect((await tasks()).find((task) => task.id === forA)?.owner).toBe('w-a');
    }, 300_000);

    it('completes the run with every task approved, no double claim and no message twice', async () => {
      await writeFile(path.join(work, 'finish'), '');
      await waitFor(
        'the run to complete',
        async () => {
          const shown = await ok('a', ['run', 'status', runId]);
          return (shown.status as { status: string }).status === 'completed' ? true : undefined;
        },
        180_000,
      );
      const fromB = await ok('b', ['run', 'status', runId]);
      expect((fromB.status as { status: string }).status).toBe('completed');
      const all = await tasks('b');
      expect(all).toHaveLength(8);
      expect(all.every((task) => task.status === 'approved')).toBe(true);
      const fromA = await ok('a', ['board', runId]);
      const boardB = await ok('b', ['board', runId]);
      expect(boardB.columns).toEqual(fromA.columns);

      // Every claim a worker was told it won is a distinct task, owned by that worker.
      const claims = ['w-a', 'w-b'].flatMap((member) =>
        steps(member)
          .filter((step) => step.event === 'claimed')
          .map((step) => ({ member, id: step.id })),
      );
      expect(new Set(claims.map((claim) => claim.id)).size).toBe(claims.length);
      for (const claim of claims)
        expect(all.find((task) => task.id === claim.id)?.owner).toBe(claim.member);
      // Each member read each message once.
      for (const member of ['lead', 'w-a', 'w-b']) {
        const received = steps(member)
          .filter((step) => step.event === 'received')
          .map((step) => step.id);
        expect(new Set(received).size, member).toBe(received.length);
      }
      expect(steps('w-b').filter((step) => step.id === cutOffMessage)).toHaveLength(1);
      // The CLI opening the store never shrank its streams.
      const replicated = await lab.run('a', [process.execPath, REPLICATED, cluster.urls]);
      expect(JSON.parse(replicated.stdout)).toEqual({ KV_teamkit: 3, 'teamkit-logs': 3 });
    }, 300_000);
  },
);
