import {
  countClaudeInbox,
  createClaudeInboxSender,
  seedClaudeInbox,
} from '../baselines/claude-inbox-sender.js';
import { createRawFloorSender } from '../baselines/raw-floor-sender.js';
import { createSqliteMessageSender } from '../baselines/sqlite-message-sender.js';
import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { createOursSender } from './send-ours.js';
import { senderContender } from './sender-contender.js';

/** Sizes of the single-writer send figure. */
export interface SendSettings extends RoundSettings {
  messagesPerRound: number;
  claudeMessagesPerRound: number;
  claudeExisting: number[];
}

const SENDER = 'lead';
const RECIPIENT = 'builder';

/** The inbox sizes the Claude Code baseline is measured at, by contender key suffix. */
export function existingLabel(count: number): string {
  return count >= 1000 ? `${count / 1000}k` : `${count}`;
}

/** Throws when a Claude Code inbox does not hold `expected` entries (a lost update). */
export async function expectInboxSize(folder: string, expected: number): Promise<void> {
  const actual = await countClaudeInbox(folder, RECIPIENT);
  if (actual !== expected) {
    throw new Error(`Claude Code inbox holds ${actual} entries, expected ${expected}`);
  }
}

/** Durable send, one writer, ~500-byte bodies. */
export const sendFigure: FigureDefinition<SendSettings> = {
  id: 'send',
  title: 'durable send, 1 writer',
  headline: 'send',
  settings: (quick) =>
    quick
      ? {
          warmup: 1,
          rounds: 3,
          messagesPerRound: 80,
          claudeMessagesPerRound: 25,
          claudeExisting: [0, 1000, 2000],
        }
      : {
          warmup: 1,
          rounds: 7,
          messagesPerRound: 250,
          claudeMessagesPerRound: 60,
          claudeExisting: [0, 1000, 2000],
        },
  async ours({ settings, folder }) {
    const sender = await createOursSender({
      folder: await folder('ours'),
      sender: SENDER,
      recipient: RECIPIENT,
    });
    if (isNotAvailable(sender)) return sender;
    return [
      senderContender({
        key: 'ours',
        label: 'sendMessage',
        sender,
        count: settings.messagesPerRound,
      }),
    ];
  },
  async baselines({ settings, folder }) {
    const contenders: Contender[] = [
      senderContender({
        key: 'raw-floor',
        label: 'raw floor (tmp+fsync+rename+dir fsync)',
        sender: await createRawFloorSender({
          folder: await folder('raw-floor'),
          sender: SENDER,
          recipient: RECIPIENT,
        }),
        count: settings.messagesPerRound,
      }),
    ];
    for (const existing of settings.claudeExisting) {
      const claudeFolder = await folder(`claude-inbox-${existing}`);
      contenders.push(
        senderContender({
          key: `claude-inbox-${existingLabel(existing)}`,
          label: `Claude Code inbox at ${existingLabel(existing)}`,
          sender: await createClaudeInboxSender({
            folder: claudeFolder,
            sender: SENDER,
            recipient: RECIPIENT,
            lockRetries: 10,
          }),
          count: settings.claudeMessagesPerRound,
          beforeRound: () => seedClaudeInbox(claudeFolder, RECIPIENT, existing),
          afterRound: (sent) => expectInboxSize(claudeFolder, existing + sent),
        }),
      );
    }
    contenders.push(
      senderContender({
        key: 'sqlite',
        label: 'SQLite insert (WAL, synchronous=FULL)',
        sender: await createSqliteMessageSender({
          folder: await folder('sqlite'),
          sender: SENDER,
          recipient: RECIPIENT,
        }),
        count: settings.messagesPerRound,
      }),
    );
    return contenders;
  },
  ratios: [
    {
      label: 'raw floor',
      numerator: 'ours',
      denominator: 'raw-floor',
      target: { op: '>=', value: 0.7 },
    },
    { label: 'Claude inbox at 0', numerator: 'ours', denominator: 'claude-inbox-0' },
    { label: 'Claude inbox at 1k', numerator: 'ours', denominator: 'claude-inbox-1k' },
    {
      label: 'Claude inbox at 2k',
      numerator: 'ours',
      denominator: 'claude-inbox-2k',
      target: { op: '>=', value: 20 },
    },
    { label: 'SQLite', numerator: 'ours', denominator: 'sqlite' },
  ],
};
