import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TeamSpecInput } from '../../schema/index.js';
import type { DeliverInput, SpawnMemberInput, TeamHostV1 } from '../team-host.js';

const run = promisify(execFile);

/** A host that records every call and keeps its sessions in a set; tests flip what it does. */
export interface RecordingHost extends TeamHostV1 {
  spawned: SpawnMemberInput[];
  delivered: DeliverInput[];
  stopped: string[];
  interrupted: string[];
  alive: Set<string>;
}

/** Options of {@link recordingHost}: method overrides, and optional methods to leave off. */
export type RecordingHostOptions = Partial<TeamHostV1> & {
  without?: readonly ('stopMember' | 'interrupt' | 'attachCommand')[];
};

/** A host whose sessions are `s-<member>-<n>`; it delivers everything and stops what it is told. */
export function recordingHost(options: RecordingHostOptions = {}): RecordingHost {
  const { without = [], ...overrides } = options;
  const host: RecordingHost = {
    specificationVersion: 'team-host-v1',
    hostId: 'recording',
    spawned: [],
    delivered: [],
    stopped: [],
    interrupted: [],
    alive: new Set(),
    async spawnMember(input) {
      host.spawned.push(input);
      const sessionId = `s-${input.member.name}-${host.spawned.length}`;
      host.alive.add(sessionId);
      return { sessionId };
    },
    async deliver(input) {
      host.delivered.push(input);
      return 'delivered';
    },
    async isAlive(sessionId) {
      return host.alive.has(sessionId);
    },
    async stopMember(sessionId) {
      host.stopped.push(sessionId);
      host.alive.delete(sessionId);
    },
    async interrupt(sessionId) {
      host.interrupted.push(sessionId);
      return host.alive.has(sessionId) ? 'interrupted' : 'unknown';
    },
    attachCommand: (sessionId) => ['echo', sessionId],
    ...overrides,
  };
  for (const capability of without) delete (host as Partial<TeamHostV1>)[capability];
  return host;
}

/** An inline team `crew`: a lead and `workers` implementers, with optional bounds and worktrees. */
export function crewTeam(
  workers: number,
  bounds: Record<string, number> = {},
  worktree = false,
): TeamSpecInput {
  return {
    id: 'crew',
    name: 'Crew',
    lead: 'lead',
    members: [
      { name: 'lead', role: 'lead', prompt: 'Lead the crew.' },
      ...Array.from({ length: workers }, (_, index) => ({
        name: `worker-${index + 1}`,
        role: 'implementer',
        prompt: 'Build things.',
        worktree,
      })),
    ],
    policy: { bounds },
  };
}

/** A fresh Teamkit home in the temp folder and its cleanup. */
export async function makeRuntimeHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-runtime-'));
  return { home, cleanup: () => rm(home, { recursive: true, force: true, maxRetries: 3 }) };
}

/** Writes the global config of `home` with these settings (and the packaged team list). */
export async function writeGlobalSettings(
  home: string,
  settings: Record<string, unknown>,
): Promise<void> {
  await writeFile(
    path.join(home, 'config.json'),
    `${JSON.stringify({ version: 1, teams: [{ id: 'coding-team' }], settings }, null, 2)}\n`,
  );
}

/** Runs git with a fixed identity, so commits work on a machine without one. */
export function git(cwd: string, args: readonly string[]): Promise<{ stdout: string }> {
  return run(
    'git',
    ['-c', 'user.name=teamkit-test', '-c', 'user.email=test@teamkit.invalid', ...args],
    { cwd },
  );
}

/** A git repository with one commit on `main`, inside `home`. */
export async function makeRepo(home: string): Promise<string> {
  const repo = path.join(home, 'repo');
  await run('git', ['init', '-q', '-b', 'main', repo]);
  await git(repo, ['commit', '-q', '--allow-empty', '-m', 'init']);
  return repo;
}
