import { defineConfig } from 'vitest/config';

/**
 * The test suites, chosen by file name:
 * - `unit` (`pnpm test`): every `*.test.ts` that needs only Node, git and tmux;
 * - `hosts` (`pnpm test:hosts`): `*.host.test.ts`, real agent CLIs and MCP hosts;
 * - `browser` (`pnpm test:browser`): `*.browser.test.ts`, a real Chromium;
 * - `nats` (`pnpm test:nats`): `*.nats.test.ts`, real nats-server processes;
 * - `hostile` (`pnpm test:hostile`): `*.hostile.test.ts`, every command against every
 *   kind of planted file (long: a run per row);
 * - `slow` (`pnpm test:slow`): `*.slow.test.ts`, the long runs that need only Node, git and
 *   tmux (SIGKILL loops, many-process races, whole teams end to end), kept out of
 *   `pnpm test` so it stays short; `.ci/run` runs it right after `pnpm test`.
 */
export type TestSuite = 'unit' | 'hosts' | 'browser' | 'nats' | 'hostile' | 'slow';

const SUITE_PATTERNS: Record<Exclude<TestSuite, 'unit'>, string> = {
  hosts: 'src/**/*.host.test.ts',
  browser: 'src/**/*.browser.test.ts',
  nats: 'src/**/*.nats.test.ts',
  hostile: 'src/**/*.hostile.test.ts',
  slow: 'src/**/*.slow.test.ts',
};

const PACKAGES: readonly [string, string][] = [
  ['team-core', 'packages/team-core'],
  ['agent-clis', 'packages/agent-clis'],
  ['test-harness', 'packages/test-harness'],
  ['opencode', 'packages/opencode'],
  ['mcp', 'packages/mcp'],
  ['claude-code', 'packages/claude-code'],
  ['ui', 'packages/ui'],
  ['store-nats', 'packages/store-nats'],
  ['team-cli', 'apps/team-cli'],
  ['bench', 'apps/bench'],
  ['repo-testing', 'tools/test-support'],
];

/**
 * The export condition that points each workspace package at its TypeScript source: tests
 * import `src`, never a stale `dist`, and worker processes get it from `sourceNodeArgs`.
 */
const SOURCE_CONDITIONS = ['teamkit-source', 'module', 'node', 'development|production'];

/** The root vitest configuration of one suite: a project per package, tests beside the code. */
export function suiteConfig(suite: TestSuite) {
  const include = suite === 'unit' ? ['src/**/*.test.ts'] : [SUITE_PATTERNS[suite]];
  const exclude = suite === 'unit' ? Object.values(SUITE_PATTERNS) : [];
  // The repository's own tools (the API report) are tested with the unit suite.
  const tools =
    suite === 'unit' ? [{ test: { name: 'api-report', root: 'tools/api-report' } }] : [];
  return defineConfig({
    test: {
      projects: [
        ...tools,
        ...PACKAGES.map(([name, root]) => ({
          resolve: { conditions: SOURCE_CONDITIONS },
          ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
          test: {
            name,
            root,
            include,
            exclude: ['**/node_modules/**', '**/dist/**', ...exclude],
            testTimeout: 60_000,
            hookTimeout: 60_000,
          },
        })),
      ],
      passWithNoTests: true,
    },
  });
}
