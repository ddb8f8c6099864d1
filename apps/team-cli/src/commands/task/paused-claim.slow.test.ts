import { describePausedClaim } from './test-support/paused-claim.js';

describePausedClaim(20);
