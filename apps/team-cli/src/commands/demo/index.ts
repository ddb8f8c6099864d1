import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';

const run = promisify(execFile);

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run(
    'git',
    [
      '-c',
      'user.name=Teamkit demo',
      '-c',
      'user.email=demo@teamkit.invalid',
      '-c',
      'commit.gpgsign=false',
      ...args,
    ],
    { cwd },
  );
  return stdout.trim();
}

/** What `team demo` reports when it is done. */
export interface DemoSummary {
  runId: string;
  team: string;
  mode: 'tmux' | 'background';
  tasks: { total: number; byStatus: Record<string, number> };
  changesRequested: number;
  messages: number;
  commits: Record<string, number>;
  members: { name: string; exit: number | string | null }[];
  pids: number[];
  leftRunning: number[];
  seconds: number;
  kept?: string;
}

/**
 * `team demo`: the built-in coding team, with scripted `teamkit-agent` members run by the
 * process host, in a temporary home and git repository. It shows the dashboard while the
 * team works, merges the member branches, stops the run, prints a summary and cleans up.
 */
export const demoCommand: CommandHandler = async (context, _args, options) => {
  const started = Date.now();
  const timeoutSeconds = Number(options.timeout ?? 300);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UsageError('--timeout takes a positive number of seconds.');
  const { output } = context;
  const folder = await mkdtemp(path.join(os.tmpdir(), 'teamkit-demo-'));
  const home = path.join(folder, 'home');
  const repo = path.join(folder, 'repo');
  const keep = options.keep === true;
  const tmux = options.tmux !== false && Boolean(context.env.TMUX);
  const { openProcessRuntime } = await import('../../supervisor/open-runtime.js');
  const { superviseOnce } = await import('../../supervisor/supervise-run.js');
  const { collectRunStatus, openRun } = await import('@teamkit/team-core');
  const { createFileStore, runPaths } = await import('@teamkit/team-core/storage');
  // The demo's run lives in its own temporary home's folder: the file store of that home.
  const store = createFileStore({ root: home });
  const env: NodeJS.ProcessEnv = { ...context.env, TEAMKIT_HOME: home };
  delete env.TEAMKIT_RUN;
  delete env.TEAMKIT_MEMBER;
  delete env.TEAMKIT_TOKEN;
  let runId: string | undefined;
  let host: Awaited<ReturnType<typeof openProcessRuntime>>['host'] | undefined;
  let runtime: Awaited<ReturnType<typeof openProcessRuntime>>['runtime'] | undefined;
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  try {
    await run('git', ['init', '-q', '-b', 'main', repo]);
    await writeFile(
      path.join(repo, 'README.md'),
      '# Demo project\n\nA repository the demo team works in.\n',
    );
    await git(repo, ['add', 'README.md']);
    await git(repo, ['commit', '-q', '-m', 'Initial commit']);
    output.note(`Teamkit demo: the coding team with scripted members in ${folder}`);
    ({ runtime, host } = await openProcessRuntime({ home, store, env, tmux }));
    const result = await runtime.startRun('coding-team', { repo });
    runId = result.runId;
    output.note(
      `Run ${runId.slice(0, 8)} started: ${result.spawned.join(', ')}${result.waiting.length > 0 ? `; waiting for the parallel bound: ${result.waiting.join(', ')}` : ''}; members ${tmux ? 'in their own tmux panes' : 'in the background'}.`,
    );

    const { renderDashboard } = await import('../../dashboard/render-dashboard.js');
    const { progressLine } = await import('../../dashboard/live-dashboard.js');
    const tty = !output.json && process.stderr.isTTY === true;
    let lastFrame = '';
    const draw = async () => {
      if (output.json || runId === undefined) return;
      const report = await collectRunStatus({ home, runId, store }).catch(() => undefined);
      if (report === undefined) return;
      if (tty) {
        const frame = renderDashboard(report, {
          paint: (kind, text) => (output.color ? output.style(kind, text) : text),
          width: process.stderr.columns ?? 100,
        });
        if (frame !== lastFrame) process.stderr.write(`\u001b[H\u001b[2J${frame}\n`);
        lastFrame = frame;
      } else {
        const line = progressLine(report);
        if (line !== lastFrame) process.stderr.write(`${line}\n`);
        lastFrame = line;
      }
    };
    const deadline = started + timeoutSeconds * 1000;
    const unreleased = new Set<string>();
    for (;;) {
      if (controller.signal.aborted) throw new Error('Interrupted; the demo run was stopped.');
      const outcome = await superviseOnce(runtime, runId, { unreleased });
      await draw();
      if (outcome !== undefined) break;
      if (Date.now() > deadline) {
        throw new Error(
          `The demo did not finish within ${timeoutSeconds} s; member logs are in ${runPaths(home, runId).logs}${keep ? '' : ' (use --keep to inspect them)'}.`,
        );
      }
      await delay(250);
    }

    const state = await openRun({ home, runId, store }).state.read();
    const commits: Record<string, number> = {};
    for (const member of state.members) {
      if (member.branch === undefined) continue;
      commits[member.branch] = Number(
        await git(repo, ['rev-list', '--count', `main..${member.branch}`]),
      );
    }
    // Merge the member branches and push them to a local "origin": pushed work is saved
    // work, so stopping the run may remove the worktrees under the safety rule.
    const branches = state.members.flatMap((member) =>
      member.branch === undefined ? [] : [member.branch],
    );
    for (const branch of branches) await git(repo, ['merge', '-q', '--no-ff', '--no-edit', branch]);
    await run('git', ['init', '-q', '--bare', path.join(folder, 'origin.git')]);
    await git(repo, ['remote', 'add', 'origin', path.join(folder, 'origin.git')]);
    await git(repo, ['push', '-q', 'origin', 'main', ...branches]);
    const report = await collectRunStatus({ home, runId, store });
    const { events } = await openRun({ home, runId, store }).events.read();
    const stop = await runtime.stopRun(runId);
    if (stop.keptWorktrees.length > 0)
      output.note(`kept worktrees: ${stop.keptWorktrees.map((entry) => entry.reason).join('; ')}`);

    const members = [...host.started.values()];
    const pids = members.map((member) => member.pid);
    const processHost = host;
    const left = members.filter((member) => isAlive(processHost, member.sessionId));
    const leftRunning = left.map((member) => member.pid);
    for (const member of left) processHost.killMember(member.sessionId);
    const summary: DemoSummary = {
      runId,
      team: state.teamName,
      mode: tmux ? 'tmux' : 'background',
      tasks: {
        total: report.tasks.length,
        byStatus: Object.fromEntries(
          Object.entries(report.tasksByStatus).filter(([, count]) => count > 0),
        ),
      },
      changesRequested: events.filter(
        (event) =>
          event.type === 'task.status' &&
          event.data?.from === 'in_review' &&
          event.data?.to === 'pending',
      ).length,
      messages: events.filter((event) => event.type === 'message.sent').length,
      commits,
      members: [...host.started.values()].map((member) => ({
        name: member.member,
        exit: member.exit === undefined ? null : (member.exit.code ?? member.exit.signal),
      })),
      pids,
      leftRunning,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      ...(keep ? { kept: folder } : {}),
    };
    output.result({ summary }, () => renderSummary(summary, output.style));
    return undefined;
  } catch (error) {
    if (runtime !== undefined && runId !== undefined)
      await runtime.stopRun(runId, { force: true }).catch(() => {});
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    // Only processes verified as this demo's members are signalled.
    for (const member of host?.started.values() ?? []) host?.killMember(member.sessionId);
    if (!keep) await rm(folder, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
  }
};

function isAlive(host: { inspectSession(id: string): { verdict: string } }, sessionId: string) {
  return host.inspectSession(sessionId).verdict === 'ours';
}

/** The demo summary as a few lines of text. */
export function renderSummary(
  summary: DemoSummary,
  style: (kind: 'bold' | 'green' | 'dim', text: string) => string = (_kind, text) => text,
): string {
  const tasks = Object.entries(summary.tasks.byStatus)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  return [
    style('bold', `Teamkit demo ${style('green', 'done')} in ${summary.seconds} s`),
    `  run:       ${summary.runId} (${summary.team}, members ${summary.mode === 'tmux' ? 'in tmux panes' : 'in the background'})`,
    `  tasks:     ${summary.tasks.total} (${tasks}); changes requested ${summary.changesRequested}×`,
    `  messages:  ${summary.messages}`,
    `  commits:   ${
      Object.entries(summary.commits)
        .map(([branch, count]) => `${branch} ${count}`)
        .join(', ') || '-'
    }`,
    `  processes: ${summary.pids.length} started, ${summary.leftRunning.length} left running`,
    ...(summary.kept === undefined ? [] : [`  kept:      ${summary.kept}`]),
  ].join('\n');
}
