import { seedClaudeInbox } from '../baselines/claude-inbox-sender.js';
import type { AnySenderOptions, SenderKind } from '../baselines/sender-kinds.js';
import { openMessagesDatabase } from '../baselines/sqlite-message-sender.js';
import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { startWorkerPool, type WorkerPool } from '../worker-pool.js';
import type { SendRound } from '../workers/send-worker.js';
import { existingLabel, expectInboxSize } from './send.js';
import { createOursSender } from './send-ours.js';

/** Sizes of the multi-writer send figure. */
export interface ConcurrentSendSettings extends RoundSettings {
  writers: number;
  messagesPerWriter: number;
  claudeMessagesPerWriter: number;
  claudeExisting: number[];
  /** Claude Code gives up after 10; with several writers that would fail sends. */
  claudeLockRetries: number;
}

const RECIPIENT = 'builder';
const SEND_WORKER = new URL('../workers/send-worker.js', import.meta.url);

interface PoolContenderOptions {
  key: string;
  label: string;
  kind: SenderKind;
  folder: string;
  writers: number;
  perWriter: number;
  lockRetries?: number;
  beforeRound?(): Promise<void>;
  afterRound?(sent: number): Promise<void>;
}

function poolContender(options: PoolContenderOptions): Contender {
  let pool: WorkerPool | undefined;
  return {
    key: options.key,
    label: options.label,
    unit: 'msg/s',
    better: 'higher',
    async setup() {
      const inits: AnySenderOptions[] = Array.from({ length: options.writers }, (_, index) => ({
        kind: options.kind,
        folder: options.folder,
        sender: `writer-${index}`,
        recipient: RECIPIENT,
        lockRetries: options.lockRetries,
      }));
      pool = await startWorkerPool(SEND_WORKER, inits);
    },
    async runRound(round) {
      if (pool === undefined) throw new Error('setup did not run');
      await options.beforeRound?.();
      const payloads: SendRound[] = Array.from({ length: options.writers }, () => ({
        firstIndex: round * options.perWriter,
        count: options.perWriter,
      }));
      const { wallMs, results } = await pool.runRound(payloads);
      const sent = (results as number[]).reduce((sum, count) => sum + count, 0);
      if (sent !== options.writers * options.perWriter) {
        throw new Error(`${options.label}: ${sent} of ${options.writers * options.perWriter} sent`);
      }
      await options.afterRound?.(sent);
      return { value: sent / (wallMs / 1000) };
    },
    async teardown() {
      await pool?.close();
    },
  };
}

/** Durable send with several writer processes to one recipient; total msgs/s. */
export const sendConcurrentFigure: FigureDefinition<ConcurrentSendSettings> = {
  id: 'send-4',
  title: 'durable send, 4 writer processes',
  headline: 'send ×4',
  settings: (quick) =>
    quick
      ? {
          warmup: 1,
          rounds: 3,
          writers: 4,
          messagesPerWriter: 30,
          claudeMessagesPerWriter: 8,
          claudeExisting: [0, 2000],
          claudeLockRetries: 1000,
        }
      : {
          warmup: 1,
          rounds: 5,
          writers: 4,
          messagesPerWriter: 120,
          claudeMessagesPerWriter: 30,
          claudeExisting: [0, 1000, 2000],
          claudeLockRetries: 1000,
        },
  async ours({ settings, folder }) {
    const oursFolder = await folder('ours');
    const probe = await createOursSender({
      folder: oursFolder,
      sender: 'probe',
      recipient: RECIPIENT,
    });
    if (isNotAvailable(probe)) return probe;
    await probe.close();
    return [
      poolContender({
        key: 'ours',
        label: 'sendMessage',
        kind: 'ours',
        folder: oursFolder,
        writers: settings.writers,
        perWriter: settings.messagesPerWriter,
      }),
    ];
  },
  async baselines({ settings, folder }) {
    const sqliteFolder = await folder('sqlite');
    // Created once here so the writers do not race to create the schema.
    openMessagesDatabase(sqliteFolder).close();
    const contenders: Contender[] = [
      poolContender({
        key: 'raw-floor',
        label: 'raw floor',
        kind: 'raw-floor',
        folder: await folder('raw-floor'),
        writers: settings.writers,
        perWriter: settings.messagesPerWriter,
      }),
    ];
    for (const existing of settings.claudeExisting) {
      const claudeFolder = await folder(`claude-inbox-${existing}`);
      contenders.push(
        poolContender({
          key: `claude-inbox-${existingLabel(existing)}`,
          label: `Claude Code inbox at ${existingLabel(existing)}`,
          kind: 'claude-inbox',
          folder: claudeFolder,
          writers: settings.writers,
          perWriter: settings.claudeMessagesPerWriter,
          lockRetries: settings.claudeLockRetries,
          beforeRound: () => seedClaudeInbox(claudeFolder, RECIPIENT, existing),
          afterRound: (sent) => expectInboxSize(claudeFolder, existing + sent),
        }),
      );
    }
    contenders.push(
      poolContender({
        key: 'sqlite',
        label: 'SQLite insert',
        kind: 'sqlite',
        folder: sqliteFolder,
        writers: settings.writers,
        perWriter: settings.messagesPerWriter,
      }),
    );
    return contenders;
  },
  ratios: [
    { label: 'raw floor', numerator: 'ours', denominator: 'raw-floor' },
    { label: 'Claude inbox at 0', numerator: 'ours', denominator: 'claude-inbox-0' },
    { label: 'Claude inbox at 1k', numerator: 'ours', denominator: 'claude-inbox-1k' },
    { label: 'Claude inbox at 2k', numerator: 'ours', denominator: 'claude-inbox-2k' },
    { label: 'SQLite', numerator: 'ours', denominator: 'sqlite' },
  ],
};
