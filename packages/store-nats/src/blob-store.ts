import { randomUUID } from 'node:crypto';
import { JetStreamApiError, StorageType } from '@nats-io/jetstream';
import { type ObjectStore, Objm } from '@nats-io/obj';
import { TeamkitError } from '@teamkit/team-core';
import type { NatsLink } from './nats-link.js';

/**
 * Texts too large for one KV message live in the store's object store (`<prefix>-blobs`),
 * each under a fresh random name written before the KV message that points to it; the KV
 * message carries only the name and the size. The object store is created the first time
 * it is needed.
 */
export interface BlobStore {
  /** Writes `data` as a new object and returns its name; `key` names it in errors and metadata. */
  write(data: Uint8Array, key: string): Promise<string>;
  /** Reads an object; `CORRUPT_DOCUMENT` when it is gone (a value pointing nowhere). */
  read(name: string, key: string): Promise<Uint8Array>;
  /** Removes an object; a missing one is fine. */
  remove(name: string): Promise<void>;
  /** Objects older than `olderThanMs` that no value or entry points to, removed; returns how many. */
  removeUnreferenced(olderThanMs: number, referenced: ReadonlySet<string>): Promise<number>;
}

/** The blob store of one link. */
export function createBlobStore(link: NatsLink): BlobStore {
  let opened: Promise<ObjectStore> | undefined;

  function store(key: string): Promise<ObjectStore> {
    opened ??= link
      .call({ what: 'open the object store for', key }, () =>
        new Objm(link.js).create(link.names.blobBucket, {
          storage: StorageType.File,
          replicas: link.replicas,
          description: 'Teamkit store: texts too large for one KV message',
        }),
      )
      .catch((error: unknown) => {
        opened = undefined;
        throw error;
      });
    return opened;
  }

  return {
    async write(data, key) {
      const objects = await store(key);
      const name = randomUUID();
      await link.call({ what: 'write the large value of', key }, () =>
        objects.putBlob({ name, description: key }, data),
      );
      return name;
    },
    async read(name, key) {
      const objects = await store(key);
      const data = await link.call({ what: 'read the large value of', key }, () =>
        objects.getBlob(name),
      );
      if (data === null) {
        throw new TeamkitError(
          'CORRUPT_DOCUMENT',
          `${key} points to the object ${name}, which is gone from ${link.names.blobBucket}; the value was left in place. Write it again.`,
          { details: { key, object: name } },
        );
      }
      return data;
    },
    async remove(name) {
      const objects = await store(name);
      await link.call({ what: 'remove the large value', key: name }, async () => {
        if ((await objects.info(name)) !== null) await objects.delete(name);
      });
    },
    async removeUnreferenced(olderThanMs, referenced) {
      const exists = await link.call({ what: 'look for', key: link.names.blobBucket }, () =>
        link.jsm.streams.info(`OBJ_${link.names.blobBucket}`).then(
          () => true,
          (error: unknown) => {
            if (error instanceof JetStreamApiError && error.code === 10059) return false;
            throw error;
          },
        ),
      );
      if (!exists) return 0;
      const objects = await store('the object store');
      const listed = await link.call({ what: 'list', key: link.names.blobBucket }, () =>
        objects.list(),
      );
      let removed = 0;
      for (const info of listed) {
        if (info.deleted || referenced.has(info.name)) continue;
        if (Date.now() - Date.parse(info.mtime) <= olderThanMs) continue;
        await this.remove(info.name);
        removed += 1;
      }
      return removed;
    },
  };
}
