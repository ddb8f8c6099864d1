import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { withClaudeLock } from '@teamkit/claude-code';
import { createFileStore } from '@teamkit/team-core/storage';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClaudeRunSource } from './server/claude-run-source.js';
import { createTeamkitRunSource } from './server/run-source.js';
import { startUiServer, type UiServer } from './server/ui-server.js';
import { chromiumMissing, launchChromium } from './testing/chromium.js';
import {
  claudeEntry,
  claudeInboxFile,
  claudeTask,
  plantClaudeTeam,
  startLeadProcess,
  writeClaudeTask,
} from './testing/plant-claude-team.js';

const DOCS_IMAGES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../docs/images',
);
const TEAM = 'session-7a052ba9';
const missing = chromiumMissing();

describe.skipIf(missing !== undefined)('a Claude Code team in team ui, in Chromium', () => {
  let home: string;
  let configDir: string;
  let server: UiServer;
  let browser: Browser;
  let lead: ReturnType<typeof startLeadProcess>;

  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-ui-claude-browser-'));
    configDir = await mkdtemp(path.join(os.tmpdir(), 'teamkit-ui-claude-config-'));
    lead = startLeadProcess();
    await plantClaudeTeam(configDir, TEAM, {
      leadPid: lead.pid,
      teammates: ['researcher', 'writer'],
    });
    const tasks = [
      claudeTask('1', {
        subject: 'Survey the existing docs',
        status: 'completed',
        owner: 'researcher',
        blocks: ['3'],
      }),
      claudeTask('2', {
        subject: 'Draft the getting-started page',
        status: 'in_progress',
        owner: 'writer',
        blocks: ['3'],
      }),
      claudeTask('3', { subject: 'Review the new pages', blockedBy: ['1', '2'] }),
      claudeTask('4', { subject: 'Fix the broken links in the README' }),
    ];
    for (const task of tasks) await writeClaudeTask(configDir, TEAM, task);
    await writeFile(
      claudeInboxFile(configDir, TEAM, 'team-lead'),
      JSON.stringify([
        claudeEntry(
          'researcher',
          'Survey done: 14 pages, 3 outdated.',
          '00000000-0000-4000-8000-000000000001',
        ),
      ]),
    );
    server = await startUiServer({
      store: createFileStore({ root: home }),
      sources: [
        createTeamkitRunSource({ store: createFileStore({ root: home }), home }),
        createClaudeRunSource({ configDir }),
      ],
      home,
      stopRun: async () => undefined,
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await lead?.stop();
    await rm(home, { recursive: true, force: true });
    await rm(configDir, { recursive: true, force: true });
  });

  it('shows the team beside Teamkit runs, moves a card when Claude Code rewrites its task, and sends under its lock', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.loginUrl());
    const row = page.locator(`tr[data-source="claude-code"][data-run="${TEAM}"]`);
    await row.waitFor();
    expect(await row.locator('.status').textContent()).toBe('live');
    await row.locator('a').click();

    const card = (column: string, id: string) =>
      page.locator(`[data-column="${column}"] [data-task-id="${id}"]`);
    await card('todo', '4').waitFor();
    expect(await page.locator('[data-column]').evaluateAll((columns) => columns.length)).toBe(3);
    expect(await page.locator('.notes').textContent()).toContain(
      'Message history is not in Claude Code',
    );
    await mkdir(DOCS_IMAGES, { recursive: true });
    await page.screenshot({ path: path.join(DOCS_IMAGES, 'ui-claude-team.png') });
    // Only the two safe writes are offered.
    expect(await page.getByRole('button', { name: 'Stop run' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Merge/ }).count()).toBe(0);
    await card('todo', '4').click();
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    expect(await dialog.locator('.form-buttons button').count()).toBe(0);
    await page.keyboard.press('Escape');

    // Claude Code rewrites a task file in place when a teammate takes the task.
    await writeClaudeTask(
      configDir,
      TEAM,
      claudeTask('4', {
        subject: 'Fix the broken links in the README',
        status: 'in_progress',
        owner: 'researcher',
      }),
    );
    await card('in-progress', '4').waitFor({ timeout: 30_000 });
    expect(await card('todo', '4').count()).toBe(0);

    // Claude Code holds the inbox's lock while the page sends: the message waits for it,
    // and the entry Claude Code writes meanwhile is kept.
    const inbox = claudeInboxFile(configDir, TEAM, 'writer');
    await writeFile(inbox, '[]');
    await page.keyboard.press('m');
    await dialog.waitFor();
    await dialog.locator('select[name="to"]').selectOption('writer');
    await dialog.locator('input[name="summary"]').fill('links');
    await dialog.locator('textarea[name="body"]').fill('Please check the links in #4 too.');
    let released = 0;
    let answered = 0;
    let response: Promise<unknown> | undefined;
    await withClaudeLock(inbox, `${inbox}.lock`, async () => {
      response = page.waitForResponse(/\/actions\/send$/).then((done) => {
        answered = Date.now();
        return done;
      });
      await Promise.all([
        page.waitForRequest(/\/actions\/send$/),
        dialog.locator('button[type="submit"]').click(),
      ]);
      // Time for the request to reach the lock; the checks below hold however long it takes.
      await delay(500);
      await writeFile(
        inbox,
        JSON.stringify([
          claudeEntry('team-lead', 'Start on #2.', '00000000-0000-4000-8000-00000000000a'),
        ]),
      );
      released = Date.now();
    });
    await response;
    await page.getByText('Message sent.').waitFor();
    expect(answered).toBeGreaterThanOrEqual(released);
    const entries = JSON.parse(await readFile(inbox, 'utf8')) as Record<string, unknown>[];
    expect(entries.map((entry) => [entry.from, entry.text, entry.summary])).toEqual([
      ['team-lead', 'Start on #2.', 'from team-lead'],
      ['teamkit', 'Please check the links in #4 too.', 'links'],
    ]);
    // The page takes no view keys while a dialog is open: let the send dialog close first.
    await dialog.waitFor({ state: 'detached' });
    await page.keyboard.press('3');
    await page.waitForURL(/\/messages$/);
    await page
      .locator('.message', { hasText: 'Please check the links in #4 too.' })
      .locator('[data-field="delivery"]', { hasText: 'waiting in the inbox' })
      .waitFor({ timeout: 30_000 });
    await page.close();
  });

  it('shows Claude Code’s refusal when a teammate left while the message was typed', async () => {
    const page = await browser.newPage();
    await page.goto(server.loginUrl(`#/run/claude-code/${TEAM}/members`));
    const member = page.locator('[data-member="writer"]');
    await member.waitFor();
    await member.getByRole('button', { name: 'Message' }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.locator('textarea[name="body"]').fill('Are you still there?');
    // Claude Code removes a teammate from its config once it approved its shutdown.
    const configFile = path.join(configDir, 'teams', TEAM, 'config.json');
    const config = JSON.parse(await readFile(configFile, 'utf8')) as {
      members: { name: string }[];
    };
    config.members = config.members.filter((entry) => entry.name !== 'writer');
    const inboxBefore = await readFile(claudeInboxFile(configDir, TEAM, 'writer'), 'utf8');
    await writeFile(configFile, JSON.stringify(config, null, 2));
    await dialog.locator('button[type="submit"]').click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('UNKNOWN_RECIPIENT');
    expect(await readFile(claudeInboxFile(configDir, TEAM, 'writer'), 'utf8')).toBe(inboxBefore);
    await page.close();
  });
});
