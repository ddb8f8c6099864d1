import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { messageText } from '../message-body.js';
import type { MessageSender, SenderOptions } from './message-sender.js';

/** Opens the benchmark database with the durability settings every SQLite baseline uses. */
export function openDurableDatabase(file: string): Database.Database {
  const db = new Database(file, { timeout: 60_000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 60000');
  return db;
}

/** The messages database of a send figure's folder, created if needed. */
export function openMessagesDatabase(folder: string): Database.Database {
  const db = openDurableDatabase(path.join(folder, 'messages.db'));
  db.exec(`CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    sender TEXT NOT NULL,
    recipient TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    read INTEGER NOT NULL DEFAULT 0
  )`);
  return db;
}

/**
 * A SQLite mailbox: better-sqlite3, WAL, `synchronous=FULL`, one INSERT per message in
 * autocommit, so each send is its own durable transaction.
 */
export async function createSqliteMessageSender(options: SenderOptions): Promise<MessageSender> {
  const db = openMessagesDatabase(options.folder);
  const insert = db.prepare(
    'INSERT INTO messages (id, sender, recipient, body, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  return {
    async send(index) {
      insert.run(
        randomUUID(),
        options.sender,
        options.recipient,
        messageText(options.sender, index),
        new Date().toISOString(),
      );
    },
    async close() {
      db.close();
    },
  };
}
