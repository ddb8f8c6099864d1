/** One claimant process's view of a task store. */
export interface TaskClaimer {
  /** Tries to claim a pending task; true only if this call won it. */
  claim(taskId: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The parent's view of a task store in the claim figure: seeding and auditing. */
export interface ClaimStore {
  /** Replaces all tasks with `count` new pending ones and returns their ids; not timed. */
  seed(count: number): Promise<string[]>;
  /** The stored owner of every task (undefined while unowned), to audit a round. */
  owners(): Promise<Map<string, string | undefined>>;
  close(): Promise<void>;
}
