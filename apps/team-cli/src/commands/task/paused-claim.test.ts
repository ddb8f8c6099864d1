import { describePausedClaim } from './test-support/paused-claim.js';

// A short run of defect 9's test; paused-claim.slow.test.ts runs 20 trials.
describePausedClaim(5);
