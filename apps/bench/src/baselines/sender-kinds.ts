import { createOursSender } from '../figures/send-ours.js';
import type { NotAvailable } from '../not-available.js';
import { createClaudeInboxSender } from './claude-inbox-sender.js';
import type { MessageSender, SenderOptions } from './message-sender.js';
import { createRawFloorSender } from './raw-floor-sender.js';
import { createSqliteMessageSender } from './sqlite-message-sender.js';

/** The senders the send figures compare; also what a writer process is told to run. */
export type SenderKind = 'ours' | 'raw-floor' | 'claude-inbox' | 'sqlite';

/** Everything a sender of any kind needs. */
export interface AnySenderOptions extends SenderOptions {
  kind: SenderKind;
  /** Only for `claude-inbox`. */
  lockRetries?: number;
}

/** Creates a sender of the given kind; `ours` may be not available yet. */
export function createSender(options: AnySenderOptions): Promise<MessageSender | NotAvailable> {
  switch (options.kind) {
    case 'ours':
      return createOursSender(options);
    case 'raw-floor':
      return createRawFloorSender(options);
    case 'claude-inbox':
      return createClaudeInboxSender({ ...options, lockRetries: options.lockRetries ?? 10 });
    case 'sqlite':
      return createSqliteMessageSender(options);
  }
}
