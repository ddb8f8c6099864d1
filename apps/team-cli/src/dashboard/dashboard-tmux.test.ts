import { execFile, execFileSync } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, createTempHome, runCli } from '../test-support/run-cli.js';

const run = promisify(execFile);
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasTmux) console.warn('skipping the tmux dashboard test: tmux is not installed');

const socket = `teamkit-test-${process.pid}`;
const tmux = (args: string[]) =>
  run('tmux', ['-L', socket, ...args], { env: { ...process.env, TMUX: '' } });
let home: string;
let cleanup: () => Promise<void>;
let runId: string;

async function paneText(): Promise<string> {
  return (await tmux(['capture-pane', '-p', '-t', 'dash'])).stdout;
}

async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}:\n${await paneText().catch(() => '')}`);
    await delay(100);
  }
}

describe.skipIf(!hasTmux)('team dashboard in a real tmux pane', () => {
  beforeAll(async () => {
    ({ home, cleanup } = await createTempHome());
    const started = await runCli([
      'run',
      'start',
      'coding-team',
      '--agent-cmd',
      'sleep 600',
      '--home',
      home,
      '--json',
    ]);
    runId = started.json().runId as string;
  });
  afterAll(async () => {
    await tmux(['kill-server']).catch(() => {});
    await runCli(['run', 'stop', runId, '--force', '--home', home]);
    await cleanup();
  });

  it('draws members and progress, redraws on a change, and exits on Ctrl-C', async () => {
    await tmux([
      'new-session',
      '-d',
      '-s',
      'dash',
      '-x',
      '140',
      '-y',
      '40',
      process.execPath,
      CLI_BIN,
      'dashboard',
      runId,
      '--home',
      home,
    ]);
    await waitFor('the first frame', async () => (await paneText()).includes('Progress'));
    const first = await paneText();
    expect(first).toContain('Team coding-team');
    expect(first).toMatch(/implementer\s+running/);
    expect(first).toContain('0/0 tasks done');
    const changedAt = Date.now();
    await runCli(['task', 'create', runId, 'Shown live', '--home', home]);
    await waitFor('the redraw', async () => (await paneText()).includes('0/1 tasks done'));
    expect(Date.now() - changedAt).toBeLessThan(5_000);
    await tmux(['send-keys', '-t', 'dash', 'C-c']);
    await waitFor('the dashboard to exit', async () => {
      const result = await tmux(['has-session', '-t', 'dash']).then(
        () => true,
        () => false,
      );
      return !result;
    });
  }, 60_000);
});
