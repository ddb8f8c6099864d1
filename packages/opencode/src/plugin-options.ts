/** How tmux panes are chosen: `auto` opens them only inside tmux with a reachable server URL. */
export type TmuxOption = boolean | 'auto';

/** Options of the Teamkit OpenCode plugin, as written in the `opencode.json` tuple form. */
export interface TeamkitPluginOptions {
  /** Register agents, commands, tools and event handling (default true). */
  enabled?: boolean;
  /** Make the default team's lead OpenCode's `default_agent` unless the user set one (default true). */
  defaultAgent?: boolean;
  /** Open a tmux pane per member; unset, Teamkit's `tmux.enabled` setting decides (default `auto`). */
  tmux?: TmuxOption;
  /** The Teamkit home folder; default `TEAMKIT_HOME`, then `~/.teamkit`. */
  home?: string;
  /** Give members that ask for one their own git worktree (default false: members share the project). */
  worktrees?: boolean;
}

/** The options with every default applied. */
export interface ResolvedPluginOptions {
  enabled: boolean;
  defaultAgent: boolean;
  /** `undefined` when the option was not given: the `tmux.enabled` setting decides. */
  tmux: TmuxOption | undefined;
  home?: string;
  worktrees: boolean;
}

/**
 * Reads the options a loader passes (possibly `undefined`, possibly hand-written JSON).
 * Values of the wrong type fall back to the default and are reported, never thrown.
 */
export function resolvePluginOptions(
  raw: unknown,
  defaults: TeamkitPluginOptions = {},
): { options: ResolvedPluginOptions; problems: string[] } {
  const problems: string[] = [];
  const input: Record<string, unknown> = {
    ...defaults,
    ...(typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? (raw as Record<string, unknown>)
      : {}),
  };
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw)))
    problems.push('plugin options must be an object; using the defaults');
  const flag = (key: string, fallback: boolean): boolean => {
    const value = input[key];
    if (value === undefined) return fallback;
    if (typeof value === 'boolean') return value;
    problems.push(`option "${key}" must be true or false; using ${fallback}`);
    return fallback;
  };
  let tmux: TmuxOption | undefined;
  if (input.tmux !== undefined) {
    if (typeof input.tmux === 'boolean' || input.tmux === 'auto') tmux = input.tmux;
    else
      problems.push(
        'option "tmux" must be true, false or "auto"; the tmux.enabled setting decides',
      );
  }
  let home: string | undefined;
  if (input.home !== undefined) {
    if (typeof input.home === 'string' && input.home !== '') home = input.home;
    else problems.push('option "home" must be a non-empty string; using the default home');
  }
  return {
    options: {
      enabled: flag('enabled', true),
      defaultAgent: flag('defaultAgent', true),
      tmux,
      ...(home === undefined ? {} : { home }),
      worktrees: flag('worktrees', false),
    },
    problems,
  };
}
