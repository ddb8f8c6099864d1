import { defineConfig } from 'vitest/config';

// Only for the run started by run-host-conformance.test.ts; the repository's config never
// includes this folder.
export default defineConfig({
  test: { include: ['flawed-hosts.spec.ts'], testTimeout: 30_000 },
});
