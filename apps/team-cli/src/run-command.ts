import type { CommandHandler } from './command-handler.js';

/**
 * Who may run a command: anyone (a member acts in its own run only), or only the user
 * (`PERMISSION_DENIED` for members), for commands that reach beyond one run.
 */
export interface CommandAccess {
  userOnly?: string;
  /** The command checks the store itself (`team doctor`) rather than failing before it runs. */
  ownStore?: boolean;
}

/**
 * Runs one command's handler the one way every command runs, whether commander parsed its
 * line (`main`) or the start-up fast path did (`fast-path.ts`): select the home's store
 * (the one store the command uses, on its context), resolve the caller, check access,
 * run, print any failure, close the store. Resolves
 * with the exit code. Everything loads lazily, so a command pays only for what it uses.
 */
export async function runCommand(
  load: () => Promise<CommandHandler>,
  args: string[],
  options: Record<string, unknown>,
  access: CommandAccess = {},
): Promise<number> {
  const { createCommandContext } = await import('./command-context.js');
  let context: Awaited<ReturnType<typeof createCommandContext>> | undefined;
  let selected: { close(): Promise<void> } | undefined;
  try {
    const home = typeof options.home === 'string' ? options.home : undefined;
    // Before the caller's identity: a member is verified against its run's state, which
    // lives in the selected store. A command that checks the store itself (`ownStore`)
    // gets the home's file store.
    const { resolveTeamkitHome } = await import('@teamkit/team-core/home');
    const { homeFileStore, selectHomeStore } = await import(
      './store-selection/select-home-store.js'
    );
    const storeHome = resolveTeamkitHome(home, process.env);
    const chosen =
      access.ownStore === true
        ? homeFileStore(storeHome)
        : await selectHomeStore({ home: storeHome, env: process.env });
    selected = chosen;
    context = await createCommandContext(
      { json: options.json === true, ...(home === undefined ? {} : { home }) },
      chosen.store,
    );
    if (access.userOnly !== undefined) {
      const { requireUser } = await import('./command-access.js');
      await requireUser(context, access.userOnly);
    }
    return (await (await load())(context, args, options)) ?? 0;
  } catch (error) {
    const { createOutput } = await import('./output.js');
    return await (context?.output ?? createOutput({ json: options.json === true })).failure(error);
  } finally {
    // A NATS connection keeps the process alive; the command is over.
    await selected?.close().catch(() => {});
  }
}
