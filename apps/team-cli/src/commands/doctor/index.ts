import type { CommandHandler } from '../../command-handler.js';
import { checkPrograms, renderProgramChecks } from './program-checks.js';

/** `team doctor [--project DIR]`: the registry's doctor report and the programs runs need. */
export const doctorCommand: CommandHandler = async (context, _args, options) => {
  const { doctor, renderDoctorReport } = await import('@teamkit/team-core');
  const report = await doctor({
    home: context.home,
    ...(typeof options.project === 'string' ? { project: options.project } : {}),
    env: context.env,
  });
  const programs = checkPrograms(context.env);
  context.output.result(
    { report, programs },
    () => `${renderDoctorReport(report)}\n${renderProgramChecks(programs)}`,
  );
  return undefined;
};
