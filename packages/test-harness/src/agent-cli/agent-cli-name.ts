import { AGENT_CLIS, type AgentCliName } from '@teamkit/agent-clis';

export type { AgentCliName } from '@teamkit/agent-clis';
export { AGENT_CLI_NAMES, isAgentCliName } from '@teamkit/agent-clis';

/**
 * Where each CLI comes from: its npm package, the `bin` entry to run, and the version
 * checked; the same facts the presets use (`AGENT_CLIS` of `@teamkit/agent-clis`).
 */
export const AGENT_CLI_PACKAGES: Record<
  AgentCliName,
  { packageName: string; bin: string; checkedVersion: string }
> = Object.fromEntries(
  Object.values(AGENT_CLIS).map((cli) => [
    cli.name,
    {
      packageName: cli.install.packageName,
      bin: cli.program,
      checkedVersion: cli.install.checkedVersion,
    },
  ]),
) as Record<AgentCliName, { packageName: string; bin: string; checkedVersion: string }>;
