import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { ProcessProbe } from '../process-probe.js';

/** A pid space no real machine has, for planted configs judged by a {@link fakeProbe}. */
export const TEST_PID_SPACE = 'test-host#pid:[1]';

/** A probe whose processes are exactly `running` (pid → start time). */
export function fakeProbe(running: Record<number, string | undefined> = {}): ProcessProbe {
  return {
    pidSpace: () => TEST_PID_SPACE,
    isRunning: (pid) => Object.hasOwn(running, pid),
    startTimeOf: (pid) => running[pid],
  };
}

/** A member entry as Claude Code 2.1.328 writes it. */
export function plantedMember(name: string, team: string, extra: Record<string, unknown> = {}) {
  const lead = name === 'team-lead';
  return {
    agentId: `${name}@${team}`,
    name,
    ...(lead ? { agentType: 'team-lead' } : { color: 'blue' }),
    joinedAt: 1_796_128_941_796,
    tmuxPaneId: lead ? 'leader' : 'in-process',
    cwd: '/projects/app',
    subscriptions: [],
    backendType: 'in-process',
    ...extra,
  };
}

/** Options of {@link plantTeam}. */
export interface PlantTeamOptions {
  /** Teammates besides `team-lead`. */
  teammates?: string[];
  leadPid?: number;
  procStart?: string;
  pidSpace?: string;
  /** Claude Code version written into `sessions/<leadPid>.json`; none when undefined. */
  version?: string;
  /** Extra top-level config fields. */
  extra?: Record<string, unknown>;
}

/** Writes `teams/<team>/config.json` (and the lead's session file) as Claude Code 2.1.328 does. */
export async function plantTeam(
  configDir: string,
  team: string,
  options: PlantTeamOptions = {},
): Promise<Record<string, unknown>> {
  const leadPid = options.leadPid ?? 4242;
  const sessionId = `${team.replace(/^session-/, '').padEnd(8, '0')}-39bd-4f9d-b8b5-0d256b7f354d`;
  const config = {
    name: team,
    createdAt: 1_796_128_941_796,
    leadAgentId: `team-lead@${team}`,
    leadSessionId: sessionId,
    leadProcess: {
      pid: leadPid,
      pidSpace: options.pidSpace ?? TEST_PID_SPACE,
      claimedAt: 1_796_128_941_794,
      ...(options.procStart === undefined
        ? { procStart: '104284' }
        : { procStart: options.procStart }),
    },
    members: [
      plantedMember('team-lead', team),
      ...(options.teammates ?? []).map((name) => plantedMember(name, team)),
    ],
    ...options.extra,
  };
  await mkdir(path.join(configDir, 'teams', team, 'inboxes'), { recursive: true });
  await mkdir(path.join(configDir, 'tasks', team), { recursive: true });
  await writeFile(
    path.join(configDir, 'teams', team, 'config.json'),
    JSON.stringify(config, null, 2),
  );
  if (options.version !== undefined) {
    await mkdir(path.join(configDir, 'sessions'), { recursive: true });
    await writeFile(
      path.join(configDir, 'sessions', `${leadPid}.json`),
      JSON.stringify({ pid: leadPid, sessionId, version: options.version, kind: 'interactive' }),
    );
  }
  return config;
}

/** A task as Claude Code writes it. */
export function plantedTask(id: string, fields: Record<string, unknown> = {}) {
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

/** Writes `tasks/<team>/<id>.json` for each task (a string is written as is). */
export async function plantTasks(
  configDir: string,
  team: string,
  tasks: Record<string, unknown>,
): Promise<void> {
  const folder = path.join(configDir, 'tasks', team);
  await mkdir(folder, { recursive: true });
  for (const [id, task] of Object.entries(tasks)) {
    await writeFile(
      path.join(folder, `${id}.json`),
      typeof task === 'string' ? task : JSON.stringify(task, null, 2),
    );
  }
}

/** An inbox entry as Claude Code 2.1.328 writes it. */
export function plantedEntry(from: string, text: string, extra: Record<string, unknown> = {}) {
  return {
    from,
    text,
    summary: `from ${from}`,
    timestamp: '2026-12-01T12:42:49.004Z',
    color: 'blue',
    msgV: 1,
    msg_id: `00000000-0000-4000-8000-${String(text.length).padStart(12, '0')}`,
    type: 'message',
    read: false,
    ...extra,
  };
}

/** Writes `teams/<team>/inboxes/<recipient>.json` (a string is written as is). */
export async function plantInbox(
  configDir: string,
  team: string,
  recipient: string,
  entries: unknown,
): Promise<string> {
  const file = path.join(configDir, 'teams', team, 'inboxes', `${recipient}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof entries === 'string' ? entries : JSON.stringify(entries, null, 2));
  return file;
}

/** Gives each test a fresh config folder, removed afterwards. */
export function useConfigDir(onCreated: (configDir: string) => void): void {
  let folder: string | undefined;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'teamkit-claude-test-'));
    onCreated(folder);
  });
  afterEach(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });
}
