import path from 'node:path';
import type { CommandHandler } from '../../command-handler.js';

/** `team teams`: the effective team library, in precedence order. */
export const teamsCommand: CommandHandler = async (context, _args, options) => {
  const { loadTeamLibrary } = await import('@teamkit/team-core');
  const library = await loadTeamLibrary({
    home: context.home,
    ...(typeof options.project === 'string' ? { project: path.resolve(options.project) } : {}),
    env: context.env,
  });
  const teams = library.teams.map((team) => ({
    id: team.id,
    name: team.spec.name,
    description: team.spec.description,
    scope: team.builtin ? 'builtin' : team.scope,
    enabled: team.enabled,
    lead: team.spec.lead,
    members: team.spec.members.map((member) => ({ name: member.name, role: member.role })),
    folder: team.folder,
  }));
  const { output } = context;
  output.result(
    { teams, defaultLead: library.defaultLead ?? null, warnings: library.warnings },
    () =>
      [
        ...teams.map(
          (team) =>
            `${output.style('bold', team.id)} ${output.style('dim', `(${team.scope})`)} ${team.members
              .map((member) => (member.name === team.lead ? `${member.name}*` : member.name))
              .join(', ')}${team.description ? `\n  ${team.description}` : ''}`,
        ),
        ...library.warnings.map(
          (warning) => `${output.style('yellow', 'warning')} ${warning.message}`,
        ),
      ].join('\n') || 'No teams.',
  );
  return undefined;
};
