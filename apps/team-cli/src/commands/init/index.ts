import path from 'node:path';
import type { CommandHandler } from '../../command-handler.js';

const EXAMPLE_TEAM = 'example-team';

const CONFIG = `{
  // Teams Teamkit can run, in precedence order. See docs/registry.md.
  "version": 1,
  "teams": [
    { "id": "coding-team", "enabled": true, "priority": 0 },
    { "path": "@teams/${EXAMPLE_TEAM}", "enabled": true, "priority": 1 }
  ],
  "settings": {}
}
`;

const FILES: Record<string, string> = {
  'team.yaml': `id: ${EXAMPLE_TEAM}
name: Example team
description: A lead and one implementer; copy this folder to make your own team.
lead: lead
members:
  - name: lead
    role: lead
    color: blue
    worktree: false
  - name: implementer
    role: implementer
    color: green
    worktree: true
`,
  'policy.yaml': `bounds:
  maxMembers: 2
  maxParallelMembers: 1
review: required
`,
  'lead.agent.md': `---
description: Plans the work, creates tasks and approves the results.
---

You lead a two-person team. Turn the goal into small tasks with checkable acceptance
criteria, hand them to the implementer, review what comes back and approve it.
`,
  'implementer.agent.md': `---
description: Implements one task at a time in its own worktree.
---

You implement tasks in your own git worktree. Claim a ready task, make the change with a
test, commit, and offer the task for review with evidence.
`,
};

/** `team init [--project [dir]]`: a starter config and an example team; existing files are kept. */
export const initCommand: CommandHandler = async (context, _args, options) => {
  const { isTeamkitError } = await import('@teamkit/team-core');
  const { createFileAtomically } = await import('@teamkit/team-core/storage');
  const project = options.project;
  const base =
    project === undefined
      ? context.home
      : path.join(path.resolve(typeof project === 'string' ? project : process.cwd()), '.teamkit');
  const created: string[] = [];
  const kept: string[] = [];
  const write = async (file: string, content: string) => {
    try {
      await createFileAtomically(file, content);
      created.push(file);
    } catch (error) {
      if (
        !isTeamkitError(error, 'ALREADY_EXISTS') &&
        (error as NodeJS.ErrnoException).code !== 'EEXIST'
      )
        throw error;
      kept.push(file);
    }
  };
  await write(path.join(base, 'config.json'), CONFIG);
  for (const [name, content] of Object.entries(FILES)) {
    await write(path.join(base, 'teams', EXAMPLE_TEAM, name), content);
  }
  const { output } = context;
  output.result(
    { scope: project === undefined ? 'global' : 'project', folder: base, created, kept },
    () =>
      [
        ...created.map((file) => `${output.style('green', 'created')} ${file}`),
        ...kept.map((file) => `${output.style('dim', 'kept')}    ${file} (exists)`),
      ].join('\n'),
  );
  return undefined;
};
