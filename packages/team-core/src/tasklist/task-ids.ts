import { TeamkitError } from '../errors/index.js';
import { TaskIdSchema } from '../schema/index.js';

/** Orders task ids as numbers ("2" before "10"). */
export function byNumericId(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** Refuses ids that are not positive decimal numbers (`INVALID_INPUT`) before they reach a path. */
export function assertTaskIds(ids: readonly string[]): void {
  for (const id of ids) {
    if (!TaskIdSchema.safeParse(id).success) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `Task ids are positive decimal numbers; got ${JSON.stringify(id)}.`,
        { details: { taskId: id } },
      );
    }
  }
}

/**
 * The next never-used id: one more than both the recorded watermark and the highest
 * stored task. Call it holding the list lock, and record the id with `writeWatermark`
 * before the task is written, so a crash in between only skips an id, never reuses one.
 * Deleted tasks stay as tombstones, so a missing, corrupt or stale watermark is rebuilt
 * from the files.
 */
export async function nextTaskId(tasks: {
  listTaskIds(): Promise<string[]>;
  readWatermark(): Promise<number>;
}): Promise<string> {
  const highestFile = (await tasks.listTaskIds()).at(-1);
  const watermark = await tasks.readWatermark();
  return String(Math.max(watermark, highestFile === undefined ? 0 : Number(highestFile)) + 1);
}
