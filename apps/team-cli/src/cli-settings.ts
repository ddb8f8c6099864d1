import type { SettingsValues } from '@teamkit/team-core';

/**
 * Teamkit's settings as a command sees them: the global config of the command's home,
 * plus the project's config when the command was given `--project`.
 */
export async function loadCliSettings(
  context: { readonly home: string; readonly env: NodeJS.ProcessEnv },
  project?: string,
): Promise<SettingsValues> {
  const { loadSettings } = await import('@teamkit/team-core');
  const settings = await loadSettings({
    home: context.home,
    env: context.env,
    ...(project === undefined ? {} : { project }),
  });
  return settings.values;
}

/**
 * Whether members run in tmux panes: `--no-tmux` says never; otherwise the
 * `tmux.enabled` setting decides (`on` always, `off` never, `auto` only inside tmux).
 */
export function wantsTmux(
  setting: SettingsValues['tmux.enabled'],
  options: { noTmuxFlag: boolean; insideTmux: boolean },
): boolean {
  if (options.noTmuxFlag || setting === 'off') return false;
  return setting === 'on' || options.insideTmux;
}
