import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTaskList, openRun, type Task } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import { chromiumMissing, launchChromium } from '@teamkit/ui/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, runCli } from '../../test-support/run-cli.js';

const missing = chromiumMissing();
const run = promisify(execFile);
const DOCS_IMAGES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../docs/images',
);

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(150);
  }
}

describe.skipIf(missing !== undefined)('team ui end to end in Chromium', () => {
  let folder: string;
  let home: string;
  let runId: string;
  let ui: ChildProcess | undefined;
  let browser: Browser;
  const env = () => ({ TEAMKIT_HOME: home });

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'teamkit-ui-e2e-'));
    home = path.join(folder, 'home');
    const repo = path.join(folder, 'repo');
    await mkdir(repo, { recursive: true });
    const git = (args: string[]) =>
      run('git', ['-c', 'user.name=UI test', '-c', 'user.email=ui@teamkit.invalid', ...args], {
        cwd: repo,
      });
    await git(['init', '-q', '-b', 'main']);
    await writeFile(path.join(repo, 'README.md'), '# Project\n');
    await git(['add', 'README.md']);
    await git(['commit', '-q', '-m', 'Initial commit']);
    const started = await runCli(
      [
        'run',
        'start',
        'coding-team',
        '--repo',
        repo,
        '--no-tmux',
        '--agent-cmd',
        'teamkit-agent --user-reviews',
        '--json',
      ],
      env(),
      { timeoutMs: 60_000 },
    );
    expect(started.code, started.stderr).toBe(0);
    runId = String(started.json().runId);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (ui?.pid !== undefined && ui.exitCode === null) ui.kill('SIGINT');
    const state =
      home === undefined
        ? undefined
        : await openRun({ home: home, runId: runId, store: createFileStore({ root: home }) })
            .state.read()
            .catch(() => undefined);
    if (state !== undefined && state.status !== 'deleted')
      await runCli(['run', 'stop', runId, '--force'], env(), { timeoutMs: 60_000 });
    await rm(folder, { recursive: true, force: true, maxRetries: 3 });
  }, 120_000);

  const startUi = async (): Promise<string> => {
    const child = spawn(process.execPath, [CLI_BIN, 'ui', runId, '--json'], {
      env: { ...process.env, TEAMKIT_HOME: home, TEAMKIT_MEMBER: '', TEAMKIT_RUN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    ui = child;
    let out = '';
    child.stdout?.setEncoding('utf8');
    return until('the URL team ui prints', async () => {
      out += child.stdout?.read() ?? '';
      const line = out.split('\n').find((entry) => entry.startsWith('{'));
      return line === undefined ? undefined : String(JSON.parse(line).url);
    });
  };

  const task = (id: string): Promise<Task> =>
    createTaskList({ store: createFileStore({ root: home }), home, runId }).getTask(id);
  const cardIn = (page: Page, column: string, id?: string) =>
    page.locator(`[data-column="${column}"] [data-task-id${id === undefined ? '' : `="${id}"`}]`);

  it('follows the scripted team live; changes requested, approvals and the stop are real', async () => {
    const url = await startUi();
    expect(url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+/\\?token=[\\w-]+#/run/teamkit/${runId}$`),
    );
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    try {
      await followTheTeam(page, url);
    } catch (error) {
      const statuses = (
        await createTaskList({ store: createFileStore({ root: home }), home, runId }).listTasks()
      ).tasks.map((entry) => `#${entry.id} ${entry.status}`);
      const logs = path.join(home, 'runtime', runId, 'logs');
      const tails: string[] = [];
      for (const name of ['lead', 'implementer', 'tester', 'supervisor'])
        tails.push(
          `${name}: ${(await readFile(path.join(logs, `${name}.log`), 'utf8').catch(() => '')).slice(-1500)}`,
        );
      process.stderr.write(
        `page: ${await page.textContent('main').catch(() => '?')}\ntasks on disk: ${statuses.join(', ')}\n${tails.join('\n')}\n`,
      );
      throw error;
    }
    await page.close();
  }, 400_000);

  const followTheTeam = async (page: Page, url: string): Promise<void> => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(url);
    // The lead plans six tasks; members claim, work and offer them for review, live.
    await page.locator('[data-task-id]').nth(5).waitFor({ timeout: 60_000 });
    // Review every task as it arrives: changes are requested once, on the first implementer
    // task (from the keyboard, with a comment); the rest are approved, from the board's
    // keyboard and from the card's dialog in turn.
    let fixId: string | undefined;
    let approved = 0;
    let screenshots = false;
    for (;;) {
      const done = (
        await createTaskList({ store: createFileStore({ root: home }), home, runId }).listTasks({
          status: 'approved',
        })
      ).tasks;
      if (done.length === 6) break;
      const next = cardIn(page, 'review').first();
      await next.waitFor({ timeout: 90_000 });
      const id = String(await next.getAttribute('data-task-id'));
      const role = await next.locator('.chip.role').textContent();
      if (role === 'implementer' && fixId === undefined) {
        fixId = id;
        await next.focus();
        await page.keyboard.press('c');
        await page.getByLabel('What should change').fill('Add a test for the empty input.');
        await page.keyboard.press('Control+Enter');
        await until(`changes requested on task ${id} on disk`, async () => {
          const stored = await task(id);
          return stored.reviewNote === 'Add a test for the empty input.' ? stored : undefined;
        });
        // The member redoes it: the card leaves review and comes back later. A quick member
        // may have it back in review (still marked as needing a fix) before the page has
        // shown it gone; either way the next card to review is the redone one.
        await until(`task ${id} out of review or redone`, async () => {
          if ((await cardIn(page, 'review', id).count()) === 0) return true;
          const stored = await task(id);
          return stored.status === 'in_review' && stored.needsFix === true ? true : undefined;
        });
        continue;
      }
      if (approved % 2 === 0) {
        await next.focus();
        await page.keyboard.press('a');
      } else {
        await next.click();
        await page
          .getByRole('dialog')
          .getByRole('button', { name: /^Approve/ })
          .click();
      }
      await until(`task ${id} approved on disk`, async () =>
        (await task(id)).status === 'approved' ? true : undefined,
      );
      await cardIn(page, 'approved', id).waitFor({ timeout: 30_000 });
      approved += 1;
      if (!screenshots && approved >= 3) {
        screenshots = true;
        await mkdir(DOCS_IMAGES, { recursive: true });
        // Clear the toasts of the actions so far (they would also expire on their own).
        const dismiss = page.getByRole('button', { name: 'Dismiss' });
        for (let left = 10; left > 0 && (await dismiss.count()) > 0; left -= 1)
          await dismiss
            .first()
            .click({ timeout: 2_000 })
            .catch(() => undefined);
        await page.screenshot({ path: path.join(DOCS_IMAGES, 'ui-board.png') });
        await page.keyboard.press('2');
        await page.locator('[data-member]').first().waitFor();
        await page.getByRole('button', { name: 'Switch to dark theme' }).click();
        await page.screenshot({ path: path.join(DOCS_IMAGES, 'ui-members.png'), fullPage: true });
        await page.getByRole('button', { name: 'Switch to light theme' }).click();
        await page.keyboard.press('1');
        await page.locator('[data-column="review"]').waitFor();
      }
    }
    expect(fixId).toBeDefined();
    const rounds = (await readFile(path.join(home, 'runtime', runId, 'events.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line.includes('"task.status"') && line.includes(`"ids":["${fixId}"]`))
      .filter((line) => line.includes('"to":"in_review"'));
    expect(rounds).toHaveLength(2);
    const tasks = (
      await createTaskList({ store: createFileStore({ root: home }), home, runId }).listTasks()
    ).tasks;
    expect(tasks.map((entry) => entry.status)).toEqual(Array(6).fill('approved'));
    await page.locator('[data-field="progress"]:text-is("6/6 done")').waitFor();

    // The lead shuts the team down; the members view shows it finish.
    await page.keyboard.press('2');
    await until(
      'every member but the lead terminated',
      async () => {
        const state = await openRun({
          home: home,
          runId: runId,
          store: createFileStore({ root: home }),
        }).state.read();
        return state.members.every((member) => member.isLead || member.status === 'terminated')
          ? true
          : undefined;
      },
      120_000,
    );
    await page
      .locator('[data-member="implementer"] .status:text-is("terminated")')
      .waitFor({ timeout: 30_000 });
    expect(
      await page.locator('[data-member="implementer"] [data-field="diff"]').textContent(),
    ).toMatch(/[1-9]\d* commits?/);

    // Stop the run from the page; on disk it is deleted.
    await page.getByRole('button', { name: 'Stop run' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop run' }).click();
    await until('the run deleted on disk', async () =>
      (
        await openRun({
          home: home,
          runId: runId,
          store: createFileStore({ root: home }),
        }).state.read()
      ).status === 'deleted'
        ? true
        : undefined,
    );
    await page.locator('[data-field="run-status"]:text-is("deleted")').waitFor({ timeout: 30_000 });
    const log = await readFile(path.join(home, 'runtime', runId, 'events.jsonl'), 'utf8');
    expect(log).toContain('"to":"approved"');
  };
});
