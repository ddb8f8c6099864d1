import { defineConfig } from 'vitest/config';

const project = (name: string, root: string) => ({
  test: {
    name,
    root,
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      project('team-core', 'packages/team-core'),
      project('test-harness', 'packages/test-harness'),
      project('opencode', 'packages/opencode'),
      project('team-cli', 'apps/team-cli'),
      project('bench', 'apps/bench'),
    ],
    passWithNoTests: true,
  },
});
