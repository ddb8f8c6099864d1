import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { createMemberClient, type TaskStatus } from '@teamkit/team-core';
import { createFileStore, runPaths } from '@teamkit/team-core/storage';
import type { Browser, Page } from 'playwright-core';
import { type NotAvailable, notAvailable } from '../not-available.js';
import { BENCH_LOCK, ensureBenchRun } from './bench-run.js';
import { teamCliBin } from './cli-start-ours.js';
import { seedTasks } from './seed-tasks.js';

/** Debian's Chromium, driven through playwright-core (which downloads no browser). */
const CHROMIUM = '/usr/bin/chromium';
const CLAIMER = 'builder';
const CYCLE: readonly TaskStatus[] = ['in_progress', 'in_review', 'completed', 'approved'];

/** One side of the UI latency figure: moves a task on disk and says when it was seen. */
export interface MoveSubject {
  /** Claims the next pending task; resolves with the ms from the claim's start to its sighting. */
  move(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The board's tasks: `count` of them, the first fifth pending (the ones the figure
 * moves), the rest spread over the other columns. Pending tasks are claimed highest id
 * first, so each lands at the top of IN PROGRESS, where the page shows it: the board
 * renders only the cards in sight.
 */
async function seedBoard(
  home: string,
  count: number,
): Promise<{ runId: string; pending: string[] }> {
  const runId = await ensureBenchRun(home);
  const pendingCount = Math.ceil(count / 5);
  const seeds = Array.from({ length: count }, (_, index) => ({
    id: String(index + 1),
    blockedBy: [],
    status: index < pendingCount ? 'pending' : (CYCLE[index % CYCLE.length] ?? 'approved'),
  })) satisfies { status: TaskStatus }[];
  await seedTasks(home, runId, seeds);
  return {
    runId,
    pending: seeds
      .filter((seed) => seed.status === 'pending')
      .map((seed) => seed.id)
      .reverse(),
  };
}

function nextPending(pending: string[]): string {
  const id = pending.shift();
  if (id === undefined) throw new Error('the board ran out of pending tasks to move');
  return id;
}

/** Starts `team ui <run> --json` on a free port and resolves with the sign-in URL it prints. */
function startUi(
  bin: string,
  home: string,
  runId: string,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, 'ui', runId, '--json'], {
    env: { ...process.env, TEAMKIT_HOME: home, TEAMKIT_MEMBER: '', TEAMKIT_RUN: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((entry) => entry.startsWith('{'));
      if (line !== undefined) resolve({ url: String(JSON.parse(line).url), child });
    });
    child.once('exit', (code) => reject(new Error(`team ui exited ${code} before printing a URL`)));
  });
}

/**
 * Teamkit's UI latency: a member claims a task (a real, durable `claimTask`), and the
 * clock stops when the page's own MutationObserver sees the card in IN PROGRESS. Both
 * clocks are the machine's wall clock (`Date.now()`), in Node and in the page.
 */
export async function createOursUiSubject(
  folder: string,
  tasks: number,
): Promise<MoveSubject | NotAvailable> {
  if (!existsSync(CHROMIUM))
    return notAvailable(`${CHROMIUM} is not installed (apt-get install chromium)`);
  const bin = teamCliBin();
  if (bin === undefined) return notAvailable('the team CLI is not built (no `team` bin found)');
  const { runId, pending } = await seedBoard(folder, tasks);
  const client = createMemberClient({
    store: createFileStore({ root: folder }),
    home: folder,
    runId,
    member: CLAIMER,
    lock: BENCH_LOCK,
  });
  const { url, child } = await startUi(bin, folder, runId);
  const { chromium } = await import('playwright-core');
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page: Page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.goto(url);
    // Every task is on the board when the columns' counts add up to it.
    await page.waitForFunction(
      (total) => {
        const document = (
          globalThis as unknown as {
            document: {
              querySelectorAll(selector: string): Iterable<{ textContent: string | null }>;
            };
          }
        ).document;
        let sum = 0;
        for (const count of document.querySelectorAll('[data-column] .column-head .count'))
          sum += Number(count.textContent);
        return sum === total;
      },
      tasks,
      { timeout: 120_000 },
    );
    const opened = browser;
    return {
      async move() {
        const id = nextPending(pending);
        await page.evaluate((taskId) => {
          // Runs in the page: a promise that settles when the card is in IN PROGRESS.
          const page = globalThis as unknown as {
            document: { querySelector(selector: string): unknown; body: unknown };
            MutationObserver: new (
              callback: () => void,
            ) => {
              observe(target: unknown, options: object): void;
              disconnect(): void;
            };
            teamkitSeen?: Promise<number>;
          };
          const selector = `[data-column="in-progress"] [data-task-id="${taskId}"]`;
          page.teamkitSeen = new Promise<number>((resolve) => {
            const observer = new page.MutationObserver(() => {
              if (page.document.querySelector(selector) === null) return;
              observer.disconnect();
              resolve(Date.now());
            });
            observer.observe(page.document.body, { childList: true, subtree: true });
          });
        }, id);
        const started = Date.now();
        await client.claimTask(id);
        const seen = await page.evaluate(
          () => (globalThis as unknown as { teamkitSeen: Promise<number> }).teamkitSeen,
        );
        return seen - started;
      },
      async close() {
        await opened.close();
        child.kill('SIGINT');
      },
    };
  } catch (error) {
    await browser?.close();
    child.kill('SIGINT');
    throw error;
  }
}

/**
 * The floor any file-watching UI stands on: a bare `fs.watch` on the tasks folder in the
 * same process, for the same claims on a board of the same size.
 */
export async function createRawWatchUiSubject(folder: string, tasks: number): Promise<MoveSubject> {
  const { runId, pending } = await seedBoard(folder, tasks);
  const client = createMemberClient({
    store: createFileStore({ root: folder }),
    home: folder,
    runId,
    member: CLAIMER,
    lock: BENCH_LOCK,
  });
  let waiting: { name: string; resolve: (at: number) => void } | undefined;
  const watcher = watch(runPaths(folder, runId).tasks, (_event, name) => {
    if (waiting !== undefined && name === waiting.name) {
      waiting.resolve(Date.now());
      waiting = undefined;
    }
  });
  return {
    async move() {
      const id = nextPending(pending);
      const seen = new Promise<number>((resolve) => {
        waiting = { name: `${id}.json`, resolve };
      });
      const started = Date.now();
      await client.claimTask(id);
      return (await seen) - started;
    },
    async close() {
      watcher.close();
    },
  };
}
