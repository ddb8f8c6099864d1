import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The `TEAMKIT_*` variables of a member, as its host set them. */
export type MemberEnvironment = Record<
  'TEAMKIT_HOME' | 'TEAMKIT_RUN' | 'TEAMKIT_MEMBER' | 'TEAMKIT_TOKEN',
  string
>;

/** The run's state as a test reads it, without team-core. */
export function readStateFile(
  home: string,
  runId: string,
): {
  members: { name: string; sessionId?: string; status: string; worktreePath?: string }[];
  status: string;
} {
  return JSON.parse(readFileSync(path.join(home, 'runtime', runId, 'state.json'), 'utf8'));
}

/** The pid of a member's recorded process. */
export function memberPid(home: string, runId: string, member: string): number {
  const sessionId = readStateFile(home, runId).members.find(
    (entry) => entry.name === member,
  )?.sessionId;
  const pid = Number(/^proc-(\d+)-/.exec(sessionId ?? '')?.[1]);
  if (!Number.isSafeInteger(pid))
    throw new Error(`${member} has no process session (${sessionId})`);
  return pid;
}

/**
 * The member's `TEAMKIT_*` variables, read from its process's start environment in
 * `/proc` (Linux). Tests act "inside" a member with them. That any process of the same
 * user can read them is the limit docs/security.md describes.
 */
export function memberEnvironment(home: string, runId: string, member: string): MemberEnvironment {
  const pid = memberPid(home, runId, member);
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter((entry) => entry.startsWith('TEAMKIT_'))
    .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]);
  const environment = Object.fromEntries(entries) as Partial<MemberEnvironment>;
  for (const name of ['TEAMKIT_HOME', 'TEAMKIT_RUN', 'TEAMKIT_MEMBER'] as const) {
    if (!environment[name]) throw new Error(`${member}'s process ${pid} has no ${name}`);
  }
  // A build without member secrets (an older one under test) gives none.
  return { TEAMKIT_TOKEN: '', ...environment } as MemberEnvironment;
}
