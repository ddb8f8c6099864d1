import type { CommandHandler } from '../../command-handler.js';

/** `team doctor [--project DIR]`: the registry's doctor report. */
export const doctorCommand: CommandHandler = async (context, _args, options) => {
  const { doctor, renderDoctorReport } = await import('@teamkit/team-core');
  const report = await doctor({
    home: context.home,
    ...(typeof options.project === 'string' ? { project: options.project } : {}),
    env: context.env,
  });
  context.output.result({ report }, () => renderDoctorReport(report));
  return undefined;
};
