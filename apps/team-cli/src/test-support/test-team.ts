import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A team package written into a temp home for tests. */
export interface TestTeam {
  id: string;
  lead: string;
  /** Member names, the lead included; each gets a worktree when `worktrees` names it. */
  members: string[];
  worktrees?: string[];
  maxParallelMembers?: number;
}

/**
 * Writes `teams/<id>/` (team.yaml and policy.yaml) into `home` and registers it in the
 * home's `config.json`, so `team run start <id> --home <home>` starts it.
 */
export async function writeTestTeam(home: string, team: TestTeam): Promise<void> {
  const folder = path.join(home, 'teams', team.id);
  await mkdir(folder, { recursive: true });
  const members = team.members
    .map(
      (name) =>
        `  - name: ${name}\n    role: ${name === team.lead ? 'lead' : 'worker'}\n    prompt: You are ${name}.\n    worktree: ${team.worktrees?.includes(name) === true}\n`,
    )
    .join('');
  await writeFile(
    path.join(folder, 'team.yaml'),
    `id: ${team.id}\nname: ${team.id}\nlead: ${team.lead}\nmembers:\n${members}`,
  );
  await writeFile(
    path.join(folder, 'policy.yaml'),
    `bounds:\n  maxMembers: ${team.members.length}\n  maxParallelMembers: ${team.maxParallelMembers ?? team.members.length}\n`,
  );
  await writeFile(
    path.join(home, 'config.json'),
    JSON.stringify({ version: 1, teams: [{ path: `@teams/${team.id}` }] }),
  );
}
