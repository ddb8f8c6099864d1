import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
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
// cluster, machine A runs the lead and w-a, machine B runs w-b, each with its own home and
// clone. `TEAMKIT_STORE_REPLICAS=3` makes the store's streams with three replicas. The
// members are scripted agents that act only through `team`, waiting for mail with `team
// inbox --wait`: the test tells a worker "task <id>", the worker tells the lead "review
// <id>". One NATS node is killed mid-run, then B is cut off and plugged back in.
function netnsMissing(): string | undefined {
  const found = findNetworkNamespaces();
  if (found.found) return undefined;
  process.stderr.write(`skipping the NATS cluster test: ${found.reason}\n`);
  return found.reason;
}
const missing = natsServerMissing() ?? netnsMissing();
const MEMBER = fileURLToPath(new URL('./__fixtures__/cluster-member.mjs', import.meta.url));
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
/** Every task the test created. */
const created: string[] = [];

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
          TEAMKIT_STORE_REPLICAS: '3',
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

/** `team board` on a machine: its columns, and every task on them. */
async function board(on: 'a' | 'b'): Promise<{ columns: unknown; tasks: ListedTask[] }> {
  const { columns } = (await ok(on, ['board', runId])) as {
    columns: { tasks: (ListedTask & { owner: string | null })[] }[];
  };
  const tasks = columns.flatMap((column) =>
    column.tasks.map(({ owner, ...task }) => (owner === null ? task : { ...task, owner })),
  );
  return { columns, tasks };
}

/** The tasks as both machines show them: the same board from A and from B. */
async function boards(): Promise<ListedTask[]> {
  const [fromA, fromB] = await Promise.all([board('a'), board('b')]);
  expect(fromB.columns).toEqual(fromA.columns);
  return fromA.tasks;
}

async function createTask(subject: string): Promise<string> {
  const id = ((await ok('a', ['task', 'create', runId, subject])).task as { id: string }).id;
  created.push(id);
  return id;
}

/** The user on A tells a member to do task `id`; returns the message's id. */
async function tell(member: string, body: string): Promise<string> {
  return (await ok('a', ['send', runId, '--to', member, body])).messageId as string;
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

/**
 * Waits until the lead approved `waited` (its own log says so), then checks them on the
 * board of A (or of both machines); returns the tasks `ids` as that board shows them.
 */
async function approved(
  ids: string[],
  from: 'a' | 'both' = 'a',
  waited: string[] = ids,
): Promise<(ListedTask | undefined)[]> {
  await waitFor(
    `the lead to approve ${waited.join(', ')}`,
    async () => {
      const done = steps('lead').filter((step) => step.event === 'approved');
      return waited.every((id) => done.some((step) => step.id === id)) ? true : undefined;
    },
    180_000,
  );
  const all = from === 'a' ? (await board('a')).tasks : await boards();
  const statuses = waited.map((id) => all.find((task) => task.id === id)?.status);
  expect(statuses).toEqual(waited.map(() => 'approved'));
  return ids.map((id) => all.find((task) => task.id === id));
}

/** A member's `TEAMKIT_*` variables, from its process's start environment (as its host set them). */
async function memberEnv(member: string): Promise<Record<string, string>> {
  const pid = await waitFor(`${member} to start`, async () => {
    const start = steps(member).find((step) => step.event === 'start') as { pid?: number };
    return start?.pid;
  });
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((entry) => entry.startsWith('TEAMKIT_'))
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

/** What `team doctor` on a machine says of the store's streams. */
async function streamReplicas(on: 'a' | 'b'): Promise<Record<string, number> | undefined> {
  const ran = await team(on, ['doctor'], undefined, 60_000);
  if (ran.code !== 0) return undefined;
  const { store } = ran.json() as { store: { replicas?: { streams: Record<string, number> } } };
  return store.replicas?.streams;
}

describe.skipIf(missing !== undefined)(
  'a run shared by two machines through a NATS cluster',
  () => {
    beforeAll(async () => {
      lab = await createNetworkLab(['n1', 'n2', 'n3', 'a', 'b']);
      cluster = await startNatsCluster(['n1', 'n2', 'n3'], { lab });
      ({ home: folder, cleanup } = await createTempHome());
      homes.a = path.join(folder, 'machine-a');
      homes.b = path.join(folder, 'machine-b');
      work = path.join(folder, 'members');
      for (const dir of [homes.a, homes.b, work]) await mkdir(dir);
      // The nodes are ready before the cluster elected its JetStream leader; `team doctor`
      // answers once it has, and makes the store's streams with TEAMKIT_STORE_REPLICAS.
      const replicas = await waitFor('the cluster to take the store', () => streamReplicas('a'));
      expect(replicas).toEqual({ KV_teamkit: 3, 'teamkit-logs': 3 });

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

    it('runs a task on each machine and shows the whole run from either', async () => {
      // B's member lives in B's home.
      expect((await memberEnv('w-b')).TEAMKIT_HOME).toBe(homes.b);
      const [forA, forB] = await Promise.all([
        createTask('write the notes'),
        createTask('write the tests'),
      ]);
      await Promise.all([tell('w-a', `task ${forA}`), tell('w-b', `task ${forB}`)]);
      // Both boards show the same run.
      const [taskA, taskB] = await approved([forA, forB], 'both');
      expect(taskA?.owner).toBe('w-a');
      expect(taskB?.owner).toBe('w-b');
    }, 240_000);

    it('goes on when one NATS node is killed, with both machines racing for a task', async () => {
      const [n1] = cluster.nodes;
      await n1?.kill();
      expect(n1?.running).toBe(false);
      const either = await createTask('tidy the readme');
      await Promise.all([tell('w-a', `task ${either}`), tell('w-b', `task ${either}`)]);
      const [task] = await approved([either]);
      expect(['w-a', 'w-b']).toContain(task?.owner);
      // No one but the owner was told it won the claim (an answer lost to the dead node may
      // leave the owner untold; the task's owner is then found by `team task get`).
      const claimed = ['w-a', 'w-b'].filter((member) =>
        steps(member).some((step) => step.event === 'claimed' && step.id === either),
      );
      expect(claimed.filter((member) => member !== task?.owner)).toEqual([]);
    }, 240_000);

    it('fails B with STORE_UNAVAILABLE while it is cut off, and resumes it when it is back', async () => {
      const wb = await memberEnv('w-b');
      await lab.cut('b');
      const [forA, forB] = await Promise.all([
        createTask('while B is cut off, on A'),
        createTask('while B is cut off, on B'),
      ]);
      [cutOffMessage] = await Promise.all([
        tell('w-b', `task ${forB}`),
        tell('w-a', `task ${forA}`),
      ]);
      expect(cutOffMessage).toMatch(/^[0-9a-f-]{36}$/);
      const [listed, claim, [taskA, taskB]] = await Promise.all([
        // The user on B, and w-b (its own environment), get the typed error; nothing they
        // try is applied.
        team('b', ['task', 'list', runId]),
        team('b', ['task', 'claim', forA], wb),
        // A goes on meanwhile: w-a's task is done, w-b's waits.
        approved([forA, forB], 'a', [forA]),
      ]);
      expect(listed.code, listed.text).toBe(EXIT_CODES.internal);
      expect(listed.json().error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect(claim.code, claim.text).toBe(EXIT_CODES.internal);
      expect(claim.json().error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect(taskA?.owner).toBe('w-a');
      expect(taskB?.status).toBe('pending');

      await lab.join('b');
      const [doneB] = await approved([forB]);
      expect(doneB?.owner).toBe('w-b');
      expect(
        steps('w-b').filter((step) => step.event === 'received' && step.id === cutOffMessage),
      ).toHaveLength(1);
    }, 300_000);

    it('completes the run with every task approved, no double claim and no message twice', async () => {
      await tell('lead', 'finish');
      await waitFor(
        'the run to complete',
        async () => {
          const shown = await ok('a', ['run', 'status', runId]);
          return (shown.status as { status: string }).status === 'completed' ? true : undefined;
        },
        180_000,
      );
      const [fromB, all, replicas] = await Promise.all([
        ok('b', ['run', 'status', runId]),
        boards(),
        // Opening the store from either machine never changed its streams' replicas.
        streamReplicas('b'),
      ]);
      expect((fromB.status as { status: string }).status).toBe('completed');
      expect(all.map((task) => task.id).sort()).toEqual([...created].sort());
      expect(all.every((task) => task.status === 'approved')).toBe(true);
      expect(replicas).toEqual({ KV_teamkit: 3, 'teamkit-logs': 3 });

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
    }, 300_000);
  },
);
