import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp project with a two-member team `pair` (lead `lead`, member `writer`) and a Teamkit home. */
export interface PairTeamProject {
  root: string;
  project: string;
  home: string;
  cleanup(): Promise<void>;
}

/** Writes the `pair` team package into `<project>/.teamkit/teams/pair` and registers it. */
export async function writePairTeam(project: string): Promise<void> {
  const folder = join(project, '.teamkit', 'teams', 'pair');
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(project, '.teamkit', 'config.json'),
    JSON.stringify({ version: 1, teams: [{ path: '@teams/pair' }] }),
  );
  await writeFile(
    join(folder, 'team.yaml'),
    [
      'id: pair',
      'name: Pair',
      'description: A lead and a writer.',
      'lead: lead',
      'members:',
      '  - name: lead',
      '    role: lead',
      '  - name: writer',
      '    role: writer',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(folder, 'policy.yaml'),
    ['toolPermissions:', '  writer:', '    bash: ask', '    webfetch: deny', ''].join('\n'),
  );
  await writeFile(
    join(folder, 'lead.agent.md'),
    '---\ndescription: Leads the pair.\nmode: primary\n---\n\nYou lead the pair.\n',
  );
  await writeFile(
    join(folder, 'writer.agent.md'),
    '---\ndescription: Writes what the lead asks.\nmode: subagent\n---\n\nYou write.\n',
  );
}

/** Creates a temp project holding the `pair` team and an empty Teamkit home beside it. */
export async function createPairTeamProject(): Promise<PairTeamProject> {
  const root = await mkdtemp(join(tmpdir(), 'teamkit-opencode-unit-'));
  const project = join(root, 'project');
  const home = join(root, 'teamkit-home');
  await mkdir(home, { recursive: true });
  await writePairTeam(project);
  return {
    root,
    project,
    home,
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 5 }),
  };
}
