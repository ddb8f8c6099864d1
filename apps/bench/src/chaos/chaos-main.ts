import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createMailbox, createTaskList } from '@teamkit/team-core';
import { TeamSpecSchema } from '@teamkit/team-core/schema';
import {
  addMember,
  createRunState,
  resumeRun,
  transitionMember,
  transitionRun,
} from '@teamkit/team-core/state';
import { findNatsServer, type NatsServerProcess, startNatsServer } from '@teamkit/test-harness';
import { seededRandom } from '../shuffle.js';
import { CHAOS_LOCK, type WorkerCommand } from './chaos-protocol.js';
import { openChaosStore, STORE_VARIABLE } from './chaos-store.js';
import {
  ChaosLedger,
  checkRunInvariants,
  type InvariantName,
  type InvariantReport,
} from './run-invariants.js';

const WORKER_SCRIPT = new URL('./chaos-worker.js', import.meta.url);
const WORKERS = 4;
/** Trials per run: each adds a member, and a run has at most 64. */
const TRIALS_PER_RUN = 25;
const TASKS_PER_TOP_UP = 12;
/** The invariants of each store: the file store's files, or what a store without files lists. */
const INVARIANTS: Record<ChaosStore, InvariantName[]> = {
  file: ['messages', 'files', 'tasks', 'run-state'],
  nats: ['messages', 'documents', 'tasks', 'run-state'],
};
type ChaosStore = 'file' | 'nats';

const USAGE = `Usage: pnpm test:chaos [--store file|nats] [--long] [--trials <n>] [--seed <n> [--repeat <k>]]

  (default)        500 trials: each SIGKILLs one of ${WORKERS} busy workers at a random moment,
                   restarts it, resumes the run and checks every invariant
  --store nats     keep the run in a private nats-server (JetStream, a free loopback port, a
                   temporary store folder; stopped at the end) instead of the home folder
  --long           5,000 trials
  --trials <n>     this many trials
  --seed <n>       rerun only the trial with this seed, on a fresh run
  --repeat <k>     with --seed: try it k times (kill timing is real, not simulated; default 10)`;

interface Worker {
  child: ChildProcess;
  member: string | undefined;
  lines: string[];
  waiters: Map<string, () => void>;
  exited: Promise<void>;
}

function startWorker(
  env: NodeJS.ProcessEnv,
  ledger: () => ChaosLedger,
  onUnexpected: (line: string) => void,
): Worker {
  const child = spawn(process.execPath, [WORKER_SCRIPT.pathname], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env,
  });
  const worker: Worker = {
    child,
    member: undefined,
    lines: [],
    waiters: new Map(),
    exited: new Promise((resolve) => child.once('close', () => resolve())),
  };
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const word = line.split(' ')[0] ?? '';
    const waiter = worker.waiters.get(word);
    if (waiter !== undefined) {
      worker.waiters.delete(word);
      waiter();
    }
    if (word === 'unexpected') onUnexpected(`${worker.member}: ${line}`);
    if (worker.member !== undefined) ledger().record(worker.member, line);
  });
  return worker;
}

function expect(worker: Worker, word: string): Promise<void> {
  return new Promise((resolve, reject) => {
    worker.waiters.set(word, resolve);
    worker.exited.then(() => reject(new Error(`worker ${worker.member} exited before "${word}"`)));
  });
}

function tell(worker: Worker, command: WorkerCommand): void {
  worker.child.stdin?.write(`${JSON.stringify(command)}\n`);
}

interface Run {
  runId: string;
  ledger: ChaosLedger;
  dead: string[];
  trials: number;
  nextMember: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      long: { type: 'boolean', default: false },
      trials: { type: 'string' },
      seed: { type: 'string' },
      repeat: { type: 'string' },
      store: { type: 'string', default: 'file' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.store !== 'file' && values.store !== 'nats') {
    console.error(`--store is file or nats, not ${values.store}\n\n${USAGE}`);
    return 2;
  }
  const storeKind: ChaosStore = values.store;
  let server: NatsServerProcess | undefined;
  if (storeKind === 'nats') {
    const found = findNatsServer();
    if (!found.found) {
      console.log(`chaos on the NATS store: not run: ${found.reason}`);
      return process.env.TEAMKIT_TEST_REQUIRE_PROGRAMS === '1' ? 1 : 0;
    }
    server = await startNatsServer();
  }
  const single = values.seed === undefined ? undefined : Number(values.seed);
  const trials =
    single !== undefined
      ? Number(values.repeat ?? 10)
      : Number(values.trials ?? (values.long ? 5_000 : 500));
  const baseSeed = single ?? Math.floor(Math.random() * 1_000_000_000);
  const home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-chaos-'));
  // The workers find their run as a `team` command does: the home, and the store it names.
  const workerEnv: NodeJS.ProcessEnv = {
    ...process.env,
    TEAMKIT_HOME: home,
    [STORE_VARIABLE]: server === undefined ? 'file' : server.url,
  };
  const { store, close: closeStore } = await openChaosStore(home, workerEnv);
  const invariants = INVARIANTS[storeKind];
  const started = performance.now();
  const unexpected: string[] = [];
  const failures: { trial: number; seed: number; report: InvariantReport }[] = [];
  const totals = new Map<InvariantName, number>(invariants.map((name) => [name, 0]));
  const phases = new Map<string, number>();
  let clock = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    phases.set(name, (phases.get(name) ?? 0) + (now - clock));
    clock = now;
  };
  let run: Run | undefined;
  const workers: Worker[] = [];
  // A spare process boots while a trial runs, so a restart does not wait for Node.
  let spare: Worker | undefined;
  const ledger = () => (run as Run).ledger;
  let currentSeed = 0;
  const spawnWorker = () =>
    startWorker(workerEnv, ledger, (line) => unexpected.push(`${line} (seed ${currentSeed})`));

  const newRun = async (seed: number): Promise<Run> => {
    const names = Array.from({ length: WORKERS }, (_, index) => `m${index + 1}`);
    const spec = TeamSpecSchema.parse({
      id: 'chaos-team',
      name: 'Chaos team',
      lead: 'lead',
      members: ['lead', ...names].map((name) => ({ name, role: name, prompt: `You are ${name}.` })),
      policy: {
        bounds: {
          maxMembers: 64,
          maxParallelMembers: 64,
          maxMessagesPerRun: 10_000_000,
          maxTurnsPerMember: 1_000_000,
          maxWallClockMinutes: 100_000,
        },
      },
    });
    const state = await createRunState(
      home,
      { spec, teamSource: { scope: 'inline' }, hostId: 'chaos' },
      { store, lock: CHAOS_LOCK },
    );
    await transitionRun(home, state.runId, 'active', { store, lock: CHAOS_LOCK });
    const fresh: Run = {
      runId: state.runId,
      ledger: new ChaosLedger(),
      dead: [],
      trials: 0,
      nextMember: WORKERS + 1,
    };
    run = fresh;
    await topUpTasks(fresh, seededRandom(seed));
    for (const [index, worker] of workers.entries()) {
      worker.member = names[index];
      await join(worker, fresh, seed * 31 + index);
    }
    return fresh;
  };

  const join = async (worker: Worker, target: Run, seed: number) => {
    const joined = expect(worker, 'joined');
    tell(worker, {
      cmd: 'run',
      home,
      runId: target.runId,
      member: worker.member as string,
      seed,
    });
    await joined;
  };

  const topUpTasks = async (target: Run, random: () => number) => {
    const tasks = createTaskList({ home, runId: target.runId, store, lock: CHAOS_LOCK });
    const open = (await tasks.listTasks({ status: ['pending', 'claimed', 'in_progress'] })).tasks;
    if (open.length >= TASKS_PER_TOP_UP) return;
    const recent = (await tasks.listTasks()).tasks.slice(-20).map((task) => task.id);
    for (let index = 0; index < TASKS_PER_TOP_UP; index++) {
      const blocker = random() < 0.4 ? recent[Math.floor(random() * recent.length)] : undefined;
      const created = await tasks.createTask('lead', {
        subject: `chaos task ${index}`,
        ...(blocker === undefined ? {} : { blockedBy: [blocker] }),
      });
      recent.push(created.id);
    }
  };

  const pauseAll = async (except?: Worker) => {
    await Promise.all(
      workers
        .filter((worker) => worker !== except)
        .map((worker) => {
          const paused = expect(worker, 'paused');
          tell(worker, { cmd: 'pause' });
          return paused;
        }),
    );
  };

  try {
    for (let index = 0; index < WORKERS; index++) workers.push(spawnWorker());
    await Promise.all(workers.map((worker) => expect(worker, 'ready')));
    spare = spawnWorker();
    let spareReady = expect(spare, 'ready');
    // Only awaited once the spare is used; the last one is killed unused at the end.
    spareReady.catch(() => {});
    for (let trial = 0; trial < trials; trial++) {
      phase('rejoin and new runs');
      const seed = single ?? baseSeed + trial;
      currentSeed = seed;
      const random = seededRandom(seed);
      if (run === undefined || run.trials >= TRIALS_PER_RUN || single !== undefined) {
        await newRun(seed);
      }
      const current = run as Run;
      current.trials += 1;
      phase('rejoin and new runs');
      for (const worker of workers) tell(worker, { cmd: 'go' });

      await delay(20 + random() * 230);
      phase('work before the kill');
      const victimIndex = Math.floor(random() * workers.length);
      const victim = workers[victimIndex] as Worker;
      victim.child.kill('SIGKILL');
      await victim.exited;
      const replacement = spare as Worker;
      const replacementReady = spareReady;
      workers[victimIndex] = replacement;
      const victimName = victim.member as string;
      current.dead.push(victimName);
      // Every live worker stops at its next operation boundary, so the files hold still.
      await pauseAll(replacement);

      phase('kill and pause');
      const livePids = new Set(
        workers
          .filter((worker) => worker !== replacement)
          .map((worker) => `pid:${worker.child.pid}`),
      );
      const mailbox = createMailbox({ home, runId: current.runId, store, lock: CHAOS_LOCK });
      const tasks = createTaskList({ home, runId: current.runId, store, lock: CHAOS_LOCK });
      const resumed = await resumeRun(
        home,
        current.runId,
        { isAlive: async (sessionId) => livePids.has(sessionId) },
        {
          store,
          lock: CHAOS_LOCK,
          recovery: {
            releaseTasksOf: async (_runId, member) =>
              (await tasks.releaseTasksOf('lead', member)).map((task) => task.id),
            reclaimReservations: async (_runId, member) =>
              (await mailbox.reclaimStaleReservations(0, member)).reclaimed.map(
                (entry) => entry.messageId,
              ),
          },
        },
      );
      phase('resume');
      // A recovery that failed is a defect even when the invariants hold.
      for (const error of resumed.errors) unexpected.push(`resume: ${error} (seed ${seed})`);

      const report = await checkRunInvariants({
        store,
        home,
        runId: current.runId,
        ledger: current.ledger,
        alive: workers.filter((worker) => worker !== replacement).map((w) => w.member as string),
        dead: current.dead,
        documents: storeKind === 'file' ? 'files' : 'documents',
      });
      current.ledger.violations.length = 0;
      phase('check');
      let failed = false;
      for (const name of invariants) {
        if (report[name].length > 0) {
          failed = true;
          totals.set(name, (totals.get(name) ?? 0) + 1);
        }
      }
      if (failed) {
        failures.push({ trial, seed, report });
        console.log(`trial ${trial + 1}: VIOLATION (seed ${seed})`);
        for (const name of invariants) {
          for (const message of report[name].slice(0, 5)) console.log(`  ${name}: ${message}`);
        }
        const entry = resumed.members.find((member) => member.member === victimName);
        console.log(
          `  the victim ${victimName}: ${entry?.liveness ?? 'not in the run'}, released tasks [${entry?.releasedTasks.join(', ') ?? ''}]`,
        );
      }

      // The dead member leaves the team for good; its replacement joins under a new name.
      await transitionMember(home, current.runId, victimName, 'terminated', {
        store,
        lock: CHAOS_LOCK,
      });
      await topUpTasks(current, random);
      await replacementReady;
      replacement.member = `m${current.nextMember++}`;
      await addMember(
        home,
        current.runId,
        { name: replacement.member, role: 'worker' },
        { store, lock: CHAOS_LOCK },
      );
      await join(replacement, current, seed);
      spare = spawnWorker();
      spareReady = expect(spare, 'ready');
      spareReady.catch(() => {});
      if ((trial + 1) % 50 === 0 || trial + 1 === trials) {
        const seconds = (performance.now() - started) / 1000;
        console.log(
          `${trial + 1}/${trials} trials, ${seconds.toFixed(0)} s, ${failures.length} with violations`,
        );
      }
    }
  } finally {
    const everyone = spare === undefined ? workers : [...workers, spare];
    for (const worker of everyone) worker.child.kill('SIGKILL');
    await Promise.all(everyone.map((worker) => worker.exited));
    await closeStore();
    await server?.close();
    await rm(home, { recursive: true, force: true });
  }

  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\nchaos on the ${storeKind} store: ${trials} trials (one SIGKILL each) in ${seconds.toFixed(0)} s${single === undefined ? `, seeds ${baseSeed}..${baseSeed + trials - 1}` : `, seed ${single}`}`,
  );
  for (const name of invariants) {
    const count = totals.get(name) ?? 0;
    console.log(
      `  ${name.padEnd(10)} ${count === 0 ? 'held in every trial' : `VIOLATED in ${count} trials`}`,
    );
  }
  console.log(
    `  workers    ${unexpected.length === 0 ? 'no unexpected errors' : `${unexpected.length} unexpected errors`}`,
  );
  for (const line of unexpected.slice(0, 10)) console.log(`    ${line}`);
  const phaseList = [...phases].map(([name, ms]) => `${name} ${(ms / 1000).toFixed(0)} s`);
  console.log(`  time spent: ${phaseList.join(', ')}`);
  if (failures.length > 0) {
    console.log(
      `\nreproduce: pnpm test:chaos${storeKind === 'file' ? '' : ` --store ${storeKind}`} --seed ${failures[0]?.seed}`,
    );
    return 1;
  }
  return unexpected.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
