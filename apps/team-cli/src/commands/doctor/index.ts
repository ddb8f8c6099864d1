import type { CommandHandler } from '../../command-handler.js';
import { checkPrograms, renderProgramChecks } from './program-checks.js';

/**
 * `team doctor [--project DIR]`: the registry's doctor report, the programs runs need, then
 * the store of the home's runs (for a NATS server: it answers, accepts the credentials, has
 * JetStream). A store that fails the check is reported in the same document, and the exit
 * code is that error's (`STORE_UNAVAILABLE`, or `PERMISSION_DENIED` for refused credentials).
 */
export const doctorCommand: CommandHandler = async (context, _args, options) => {
  const { doctor, renderDoctorReport } = await import('@teamkit/team-core');
  const { checkStore, storeCheckError } = await import('../../store-selection/check-store.js');
  const { readStoreSelection } = await import('../../store-selection/index.js');
  const { loadCliSettings } = await import('../../cli-settings.js');
  const report = await doctor({
    home: context.home,
    ...(typeof options.project === 'string' ? { project: options.project } : {}),
    env: context.env,
  });
  const settings = await loadCliSettings(context);
  const store = await checkStore(
    await readStoreSelection(
      {
        url: settings['store.url'],
        credsFile: settings['store.credsFile'],
        replicas: settings['store.replicas'],
      },
      context.env,
    ),
  );
  const programs = checkPrograms(context.env);
  context.output.result(
    { report, programs, store },
    () =>
      `${renderDoctorReport(report)}\n${renderProgramChecks(programs)}\n\nStore\n  ${store.line}`,
  );
  if (store.ok) return undefined;
  // The report (with the failed line) is the one document printed; the exit code says why.
  const { exitCodeFor } = await import('../../exit-codes.js');
  return exitCodeFor(storeCheckError(store));
};
