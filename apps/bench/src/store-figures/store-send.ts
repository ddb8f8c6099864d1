import { randomUUID } from 'node:crypto';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { createSqliteMessageSender } from '../baselines/sqlite-message-sender.js';
import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { senderContender } from '../figures/sender-contender.js';
import { messageText } from '../message-body.js';
import { isNotAvailable } from '../not-available.js';
import { openTargetStore, type StoreTarget, startFigureNatsServer } from './store-targets.js';

/** Sizes of the store send figure. */
export interface StoreSendSettings extends RoundSettings {
  entriesPerRound: number;
}

const INBOX = 'runtime/bench/inboxes/builder';
const UNREAD_CAP_BYTES = 1024 * 1024 * 1024;

function addEntryContender(
  key: string,
  label: string,
  target: StoreTarget,
  count: number,
  onClose: () => Promise<void> = async () => {},
): Contender {
  let store: TeamkitStore | undefined;
  const contender = senderContender({
    key,
    label,
    count,
    sender: {
      async send(index) {
        store ??= await openTargetStore(target);
        await store.addEntry(INBOX, randomUUID(), messageText('lead', index), {
          // An unread cap, as the mailbox checks one.
          admit(pending) {
            if (pending.bytes > UNREAD_CAP_BYTES) throw new Error('the bench inbox is full');
          },
        });
      },
      async close() {
        await store?.close();
        await onClose();
      },
    },
  });
  return {
    ...contender,
    async setup() {
      store = await openTargetStore(target);
    },
  };
}

/**
 * The store's send-like primitive, `addEntry` (a ~500-byte entry, duplicate check and
 * admission included), one writer: the NATS store beside the file store and a SQLite
 * insert, in the same run.
 */
export const storeSendFigure: FigureDefinition<StoreSendSettings> = {
  id: 'store-send',
  title: 'store addEntry, 1 writer: NATS store vs file store',
  headline: 'NATS addEntry',
  settings: (quick) =>
    quick
      ? { warmup: 1, rounds: 3, entriesPerRound: 60 }
      : { warmup: 1, rounds: 7, entriesPerRound: 250 },
  async ours({ settings }) {
    const server = await startFigureNatsServer();
    if (isNotAvailable(server)) return server;
    return [
      addEntryContender(
        'ours-nats',
        'NATS store addEntry',
        server.target(`bench-send-${process.pid}`),
        settings.entriesPerRound,
        () => server.close(),
      ),
    ];
  },
  async baselines({ settings, folder }) {
    return [
      addEntryContender(
        'file-store',
        'file store addEntry',
        { kind: 'file', root: await folder('file-store') },
        settings.entriesPerRound,
      ),
      senderContender({
        key: 'sqlite',
        label: 'SQLite insert (WAL, synchronous=FULL)',
        sender: await createSqliteMessageSender({
          folder: await folder('sqlite'),
          sender: 'lead',
          recipient: 'builder',
        }),
        count: settings.entriesPerRound,
      }),
    ];
  },
  ratios: [
    { label: 'file store addEntry', numerator: 'ours-nats', denominator: 'file-store' },
    { label: 'SQLite insert', numerator: 'ours-nats', denominator: 'sqlite' },
  ],
};
