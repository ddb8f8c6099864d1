import { describeSigkillChaos } from './test-support/sigkill-chaos.js';

// A short run of the chaos test, so `pnpm test` guards the mailbox and the task list
// against a crash at any moment; sigkill-chaos.slow.test.ts runs the full count.
describeSigkillChaos(16, 240_000);
