import { describeSigkillChaos } from './test-support/sigkill-chaos.js';

// The full chaos run (`pnpm test:slow`); CHAOS_TRIALS sets another count per role.
describeSigkillChaos(Number(process.env.CHAOS_TRIALS ?? 100), 900_000);
