import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { TeamkitError } from '@teamkit/team-core';
import type { HeldLock, LockOptions } from '@teamkit/team-core/storage';
import { lockKey } from './key-mapping.js';
import { createLeaseObserver, DEFAULT_LOCK_TIMEOUT_MS, staleMsOf, watchSubject } from './lease.js';
import { KV_OPERATION_HEADER, type NatsLink } from './nats-link.js';
import { isTombstone } from './stored-record.js';

const encoder = new TextEncoder();

/**
 * Locks as KV keys (`/lock.<key>`): acquiring creates the key (only one creator wins), the
 * holder rewrites it every quarter of the stale period by compare-and-set (its heartbeat),
 * and releasing deletes it at the holder's own revision, so a holder never removes a lock
 * someone else took. A waiter takes a lock over, again by compare-and-set, only once it has
 * seen the same heartbeat for longer than the stale period on its own clock: a holder that
 * keeps beating keeps its lock however long it works. A holder that cannot beat for the
 * stale period (frozen, cut off) counts its lock as lost: its next `assertHeld` throws.
 */
export function createNatsLocks(link: NatsLink, defaults: LockOptions) {
  async function acquire(subject: string, key: string, staleMs: number, timeoutMs: number) {
    const holder = { holder: randomUUID(), pid: process.pid, host: hostname() };
    const valueAt = (beat: number) => encoder.encode(JSON.stringify({ ...holder, beat }));
    const observer = createLeaseObserver(staleMs);
    const signal = watchSubject(link, subject);
    const deadline = Date.now() + timeoutMs;
    let wait = 2;
    try {
      for (;;) {
        const current = await link.getLast('bucket', subject, { what: 'lock', key });
        const free = current === undefined || isTombstone(current);
        if (free || observer.isStale(String(current.seq))) {
          const seq = await link.publish(
            subject,
            valueAt(0),
            { expectSeq: current?.seq ?? 0 },
            { what: 'lock', key },
          );
          if (seq !== undefined) return { seq, valueAt };
          continue;
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new TeamkitError(
            'LOCK_TIMEOUT',
            `Timed out after ${timeoutMs} ms waiting for the lock ${key}. Another process holds it; if none is running, it becomes stale after ${staleMs} ms.`,
            { details: { lock: key, timeoutMs, staleMs } },
          );
        }
        await signal.next(Math.min(left, wait + Math.random() * wait));
        wait = Math.min(wait * 2, 100);
      }
    } finally {
      signal.close();
    }
  }

  async function withLock<T>(
    key: string,
    fn: (lock: HeldLock) => Promise<T>,
    options: LockOptions = {},
  ): Promise<T> {
    const subject = link.kvSubject(lockKey(key));
    const staleMs = staleMsOf(options.staleMs ?? defaults.staleMs);
    const timeoutMs = options.timeoutMs ?? defaults.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    const { seq, valueAt } = await acquire(subject, key, staleMs, timeoutMs);

    let revision = seq;
    let beat = 0;
    let lastBeat = Date.now();
    let taken = false;
    let stopped = false;
    let beating: Promise<void> = Promise.resolve();
    const lost = () => taken || Date.now() - lastBeat > staleMs;
    const timer = setInterval(
      () => {
        beating = beating.then(async () => {
          if (stopped || taken) return;
          beat += 1;
          const next = await link
            .publish(subject, valueAt(beat), { expectSeq: revision }, { what: 'lock', key })
            .catch(() => null);
          if (next === null) return; // unreachable for now: lost() counts from the last beat
          if (next === undefined) taken = true;
          else {
            revision = next;
            lastBeat = Date.now();
          }
        });
      },
      Math.max(250, Math.floor(staleMs / 4)),
    );
    timer.unref();

    const lock: HeldLock = {
      key,
      get compromised() {
        return lost();
      },
      assertHeld() {
        if (lost()) {
          throw new TeamkitError(
            'LOCK_COMPROMISED',
            `The lock ${key} was lost while held (${taken ? 'another process took it over' : `no heartbeat reached the server for ${staleMs} ms`}); the write was refused. Retry the operation.`,
            { details: { lock: key } },
          );
        }
      },
    };

    /** Stops the heartbeat and deletes the lock at our revision; false when it was lost. */
    async function release(): Promise<boolean> {
      stopped = true;
      clearInterval(timer);
      await beating;
      const wasLost = lost();
      const released = await link
        .publish(
          subject,
          new Uint8Array(0),
          { headers: { [KV_OPERATION_HEADER]: 'DEL' }, expectSeq: revision },
          { what: 'unlock', key },
        )
        // Unreachable: the lock stays until its heartbeat is seen stale and it is taken over.
        .catch(() => null);
      return !wasLost && released !== undefined;
    }

    let result: T;
    try {
      result = await fn(lock);
    } catch (error) {
      await release();
      throw error;
    }
    if (!(await release())) {
      throw new TeamkitError(
        'LOCK_COMPROMISED',
        `The lock ${key} was lost while held; the result was discarded. Retry the operation.`,
        { details: { lock: key } },
      );
    }
    return result;
  }

  return { withLock };
}
