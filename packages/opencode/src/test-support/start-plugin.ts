import type { Hooks, PluginInput, ToolContext } from '@opencode-ai/plugin';
import { createTeamkitPlugin } from '../create-teamkit-plugin.js';
import type { FakeOpenCodeClient } from './fake-opencode-client.js';

/** Starts the plugin the way OpenCode does, over a fake client, in `project`; `notices` gets its stderr lines. */
export async function startPlugin(
  client: FakeOpenCodeClient,
  input: { home: string; project: string; options?: Record<string, unknown> },
  notices: string[] = [],
): Promise<Hooks> {
  const plugin = createTeamkitPlugin(
    { home: input.home, tmux: false },
    { notice: (line) => notices.push(line) },
  );
  const pluginInput = {
    client,
    project: { id: 'global', worktree: input.project },
    directory: input.project,
    worktree: input.project,
    serverUrl: new URL('http://localhost:4096'),
    experimental_workspace: { register() {} },
    $: undefined,
  } as unknown as PluginInput;
  return plugin(pluginInput, input.options);
}

/** A tool context for a call made by `sessionID`; `titles` collects the metadata titles. */
export function toolContext(
  sessionID: string,
  directory = '/',
): ToolContext & { titles: string[] } {
  const titles: string[] = [];
  return {
    sessionID,
    messageID: 'msg_test',
    agent: 'test',
    directory,
    worktree: directory,
    abort: new AbortController().signal,
    metadata(input) {
      if (input.title !== undefined) titles.push(input.title);
    },
    ask: async () => {},
    titles,
  };
}

/** Calls one of the plugin's tools by name with raw arguments. */
export async function callTool(
  hooks: Hooks,
  name: string,
  args: Record<string, unknown>,
  sessionID: string,
): Promise<string> {
  const definition = hooks.tool?.[name];
  if (definition === undefined) throw new Error(`no tool ${name}`);
  const result = await definition.execute(args as never, toolContext(sessionID));
  return typeof result === 'string' ? result : result.output;
}
