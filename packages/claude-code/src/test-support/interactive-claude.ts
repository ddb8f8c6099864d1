import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Claude Code running interactively in a private tmux server, with a home of its own. */
export interface InteractiveClaude {
  /** Claude Code's config folder (`CLAUDE_CONFIG_DIR`): where its teams are written. */
  readonly configDir: string;
  /** The folder Claude Code works in. */
  readonly project: string;
  /** Starts `claude` in the tmux session `lead`. */
  start(): Promise<void>;
  /** Types `text` into the prompt and presses Enter. */
  type(text: string): Promise<void>;
  /** What the pane shows now. */
  screen(): Promise<string>;
  /** Kills the private tmux server (and with it whatever still runs in it). */
  stop(): Promise<void>;
}

/** Options of {@link prepareInteractiveClaude}. */
export interface InteractiveClaudeOptions {
  /** A fresh folder the environment owns: home, config, temp folder and project go inside. */
  root: string;
  /** The `claude` executable. */
  claude: string;
  /** The mock model server's origin (`http://127.0.0.1:<port>`). */
  apiOrigin: string;
}

// Any key will do for a mock API; Claude Code asks once per key unless its last 20
// characters are listed as approved.
const API_KEY = 'sk-ant-api03-teamkit-mock-key-0000000000000000000000000000-AAAAAAAA';

/**
 * Seeds a home in which Claude Code 2.1.328 starts interactively without a question:
 * onboarding done, the project trusted, the API key approved, agent teams on, the model
 * API on loopback (also in `settings.json`, since teammates in tmux panes do not inherit
 * `ANTHROPIC_*`), the marketplace auto-install off so nothing reaches for the network.
 */
export function prepareInteractiveClaude(options: InteractiveClaudeOptions): InteractiveClaude {
  const home = path.join(options.root, 'home');
  const configDir = path.join(options.root, 'claude-config');
  const tmp = path.join(options.root, 'tmp');
  const project = path.join(options.root, 'project');
  for (const folder of [home, configDir, tmp, project]) mkdirSync(folder, { recursive: true });
  const teamEnv = {
    ANTHROPIC_BASE_URL: options.apiOrigin,
    ANTHROPIC_API_KEY: API_KEY,
    CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: '1',
    CLAUDE_CODE_ENABLE_TODO_TOOLS: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    IS_SANDBOX: '1',
  };
  writeFileSync(
    path.join(configDir, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      lastOnboardingVersion: '2.1.328',
      numStartups: 5,
      theme: 'dark',
      bypassPermissionsModeAccepted: true,
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: {
        [project]: {
          hasTrustDialogAccepted: true,
          hasCompletedProjectOnboarding: true,
          allowedTools: [],
        },
      },
    }),
  );
  writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify({ env: teamEnv }));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    TMPDIR: tmp,
    CLAUDE_CODE_TMPDIR: tmp,
    CLAUDE_CONFIG_DIR: configDir,
    NO_PROXY: '127.0.0.1,localhost',
    ...teamEnv,
  };
  const socket = `teamkit-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]) => run('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  return {
    configDir,
    project,
    async start() {
      // `env -i` gives Claude Code exactly this environment, none of the test runner's.
      await tmux(
        'new-session',
        '-d',
        '-s',
        'lead',
        '-x',
        '200',
        '-y',
        '50',
        '-c',
        project,
        'env',
        '-i',
        ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
        options.claude,
        '--permission-mode',
        'acceptEdits',
      );
    },
    async type(text) {
      await tmux('send-keys', '-t', 'lead', '-l', text);
      await tmux('send-keys', '-t', 'lead', 'Enter');
    },
    async screen() {
      return (await tmux('capture-pane', '-p', '-t', 'lead')).stdout;
    },
    async stop() {
      await tmux('kill-server').catch(() => {});
    },
  };
}
