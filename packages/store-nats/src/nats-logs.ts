import { TeamkitError } from '@teamkit/team-core';
import { assertLogLine, type LogRead, type ReadLogOptions } from '@teamkit/team-core/storage';
import { logSubject } from './key-mapping.js';
import type { NatsLink } from './nats-link.js';
import { scanStream } from './stream-scan.js';

const DEFAULT_READ_BYTES = 16 * 1024 * 1024;
const CURSOR = /^[0-9]{1,16}$/;
const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();
// Room left in a message for the subject and headers.
const HEADROOM_BYTES = 8 * 1024;

/**
 * Logs on the store's log stream: one subject per log, one message per line. An append is
 * one publish (whole, never interleaved with another writer's line, never repeated on a
 * retry), and a cursor is the stream sequence of the last line read, so a reader goes on
 * exactly where it stopped.
 */
export function createNatsLogs(link: NatsLink) {
  function lineLimit(): number {
    return Math.max(1_024, link.nc.info?.max_payload ?? 1_048_576) - HEADROOM_BYTES;
  }

  async function append(key: string, line: string): Promise<void> {
    const subject = logSubject(link.names, key);
    assertLogLine(line, key);
    const data = encoder.encode(line);
    if (data.length > lineLimit()) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `Refused to append to ${key}: a ${data.length}-byte line is over the ${lineLimit()} bytes one NATS message holds.`,
        { details: { key, bytes: data.length } },
      );
    }
    await link.publish(subject, data, {}, { what: 'append to', key });
  }

  async function readLog(
    key: string,
    cursor?: string,
    options: ReadLogOptions = {},
  ): Promise<LogRead> {
    const subject = logSubject(link.names, key);
    if (cursor !== undefined && (typeof cursor !== 'string' || !CURSOR.test(cursor))) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `${JSON.stringify(cursor)} is not a cursor of the NATS store's logs; pass the cursor readLog returned for ${key}.`,
        { details: { key, cursor: String(cursor) } },
      );
    }
    const after = cursor === undefined ? 0 : Number(cursor);
    const maxBytes = Math.max(options.maxBytes ?? DEFAULT_READ_BYTES, 1);
    const last = await link.getLast('log', subject, { what: 'read', key });
    if (last === undefined || last.seq <= after) {
      return { lines: [], skipped: 0, cursor: String(after), atEnd: true };
    }
    let seen = 0;
    const messages = await scanStream(link, {
      stream: 'log',
      filter: subject,
      from: { startSeq: after + 1, endSeq: last.seq },
      headersOnly: false,
      operation: { what: 'read', key },
      enough: (collected) => {
        const newest = collected[collected.length - 1];
        // A retried scan starts collecting again.
        if (collected.length === 1) seen = 0;
        seen += (newest?.data.length ?? 0) + 1;
        return seen >= maxBytes || (newest?.seq ?? 0) >= last.seq;
      },
    });
    const lines: string[] = [];
    let skipped = 0;
    let bytes = 0;
    let next = after;
    for (const message of messages) {
      if (message.seq > last.seq) break;
      const size = message.data.length + 1;
      if (next !== after && bytes + size > maxBytes) break;
      bytes += size;
      next = message.seq;
      let line: string;
      try {
        line = decoder.decode(message.data);
      } catch {
        skipped += 1;
        continue;
      }
      if (line.includes('\0')) skipped += 1;
      else if (line !== '') lines.push(line);
    }
    return { lines, skipped, cursor: String(next), atEnd: next >= last.seq };
  }

  return { append, readLog };
}
