import path from 'node:path';
import { openDurableDatabase } from './sqlite-message-sender.js';
import type { ClaimStore, TaskClaimer } from './task-claimer.js';

function openTasksDatabase(folder: string) {
  const db = openDurableDatabase(path.join(folder, 'tasks.db'));
  db.exec(`CREATE TABLE IF NOT EXISTS tasks (
    id INTEGER PRIMARY KEY,
    status TEXT NOT NULL,
    owner TEXT
  )`);
  return db;
}

/** The SQLite task table the claim baseline races on (WAL, `synchronous=FULL`). */
export async function createSqliteClaimStore(folder: string): Promise<ClaimStore> {
  const db = openTasksDatabase(folder);
  return {
    async seed(count) {
      const insert = db.prepare(
        "INSERT INTO tasks (id, status, owner) VALUES (?, 'pending', NULL)",
      );
      db.transaction(() => {
        db.exec('DELETE FROM tasks');
        for (let id = 1; id <= count; id++) insert.run(id);
      })();
      return Array.from({ length: count }, (_, index) => String(index + 1));
    },
    async owners() {
      const rows = db.prepare('SELECT id, owner FROM tasks').all() as {
        id: number;
        owner: string | null;
      }[];
      return new Map(rows.map((row) => [String(row.id), row.owner ?? undefined]));
    },
    async close() {
      db.close();
    },
  };
}

/**
 * A SQLite claimant: one conditional UPDATE per attempt in autocommit; it won when the
 * row changed. `busy_timeout` makes contending writers wait instead of failing.
 */
export async function createSqliteClaimer(folder: string, owner: string): Promise<TaskClaimer> {
  const db = openTasksDatabase(folder);
  const update = db.prepare(
    "UPDATE tasks SET owner = ?, status = 'claimed' WHERE id = ? AND status = 'pending'",
  );
  return {
    async claim(taskId) {
      return update.run(owner, Number(taskId)).changes === 1;
    },
    async close() {
      db.close();
    },
  };
}
