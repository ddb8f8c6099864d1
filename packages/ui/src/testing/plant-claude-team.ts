import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createProcessProbe } from '@teamkit/claude-code';

/**
 * Claude Code team files as Claude Code 2.1.328 writes them (shapes observed with the
 * real binary), planted for the UI's tests. The lead is a real process of this machine,
 * so the team's liveness is judged exactly as for a real team.
 */

/** Writes `teams/<team>/config.json` naming `leadPid` as the lead process, and its inbox folder. */
export async function plantClaudeTeam(
  configDir: string,
  team: string,
  options: { leadPid: number; teammates?: string[] },
): Promise<void> {
  const probe = createProcessProbe();
  const procStart = probe.startTimeOf(options.leadPid);
  const member = (name: string) => ({
    agentId: `${name}@${team}`,
    name,
    ...(name === 'team-lead' ? { agentType: 'team-lead' } : { color: 'blue', model: 'opus' }),
    joinedAt: 1_796_128_941_796,
    tmuxPaneId: name === 'team-lead' ? 'leader' : 'in-process',
    cwd: '/projects/app',
    subscriptions: [],
    backendType: 'in-process',
  });
  await mkdir(path.join(configDir, 'teams', team, 'inboxes'), { recursive: true });
  await mkdir(path.join(configDir, 'tasks', team), { recursive: true });
  await writeFile(
    path.join(configDir, 'teams', team, 'config.json'),
    JSON.stringify(
      {
        name: team,
        createdAt: 1_796_128_941_796,
        leadAgentId: `team-lead@${team}`,
        leadSessionId: `${team.replace(/^session-/, '').padEnd(8, '0')}-39bd-4f9d-b8b5-0d256b7f354d`,
        leadProcess: {
          pid: options.leadPid,
          pidSpace: probe.pidSpace(),
          claimedAt: 1_796_128_941_794,
          ...(procStart === undefined ? {} : { procStart }),
        },
        members: ['team-lead', ...(options.teammates ?? [])].map(member),
      },
      null,
      2,
    ),
  );
}

/** A task as Claude Code writes it. */
export function claudeTask(id: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    subject: `Task ${id}`,
    description: `What task ${id} is`,
    status: 'pending',
    blocks: [],
    blockedBy: [],
    ...fields,
  };
}

/** Writes `tasks/<team>/<id>.json` in place, as Claude Code does (a string is written as is). */
export async function writeClaudeTask(
  configDir: string,
  team: string,
  task: Record<string, unknown> | string,
  id?: string,
): Promise<string> {
  const folder = path.join(configDir, 'tasks', team);
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `${id ?? (task as { id: string }).id}.json`);
  await writeFile(file, typeof task === 'string' ? task : JSON.stringify(task, null, 2));
  return file;
}

/** The inbox file of `recipient` in `team`. */
export function claudeInboxFile(configDir: string, team: string, recipient: string): string {
  return path.join(configDir, 'teams', team, 'inboxes', `${recipient}.json`);
}

/** An inbox entry as Claude Code 2.1.328 writes it. */
export function claudeEntry(from: string, text: string, msgId: string) {
  return {
    from,
    text,
    summary: `from ${from}`,
    timestamp: '2026-12-01T12:42:49.004Z',
    color: 'blue',
    msgV: 1,
    msg_id: msgId,
    type: 'message',
    read: false,
  };
}

/** A process that stands in for a team's lead until it is killed. */
export function startLeadProcess(): { pid: number; stop(): Promise<void> } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
