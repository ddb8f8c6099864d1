import type { LockOptions } from '@teamkit/team-core/storage';

/** What the harness tells a worker to do, one JSON object per stdin line. */
export type WorkerCommand =
  | { cmd: 'run'; home: string; runId: string; member: string; seed: number }
  | { cmd: 'pause' }
  | { cmd: 'go' };

/** Lock tuning of the chaos suite: the shortest stale period the storage allows. */
export const CHAOS_LOCK: LockOptions = { staleMs: 2_000, timeoutMs: 120_000 };
