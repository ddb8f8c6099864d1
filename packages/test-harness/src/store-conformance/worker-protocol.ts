import type { EntryState } from '@teamkit/team-core/storage';

/** What the suite asks a store worker process to do; see store-worker.ts. */
export type WorkerRequest =
  | { op: 'read'; key: string }
  | { op: 'create'; key: string; text: string }
  | { op: 'update'; key: string; text: string; revision: string }
  | { op: 'put'; key: string; text: string }
  | { op: 'claimMarkers'; keys: string[] }
  | { op: 'addEntries'; collection: string; ids: string[]; maxCount: number }
  | { op: 'moveEntries'; collection: string; ids: string[]; from: EntryState[]; to: EntryState }
  | { op: 'append'; key: string; lines: string[] }
  | { op: 'increment'; key: string; times: number }
  | { op: 'incrementLocked'; key: string; lockKey: string; times: number };

/** A worker's reply: the result, or the error code (`RAW:<text>` for a non-Teamkit error). */
export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; code: string; message: string };
