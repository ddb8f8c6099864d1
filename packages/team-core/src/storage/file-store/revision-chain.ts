import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { TeamkitError } from '../../errors/index.js';
import { TEMP_PREFIX } from '../store-key.js';
import { errnoOf, toStoreError } from './io-error.js';
import { openRegular, plantedLink, READ_FLAGS, readOpened, removeQuietly } from './regular-file.js';

/**
 * What a removed value's name holds: a symlink to this target, which no key can name
 * (`:` is not a key character), so outside readers following it find nothing.
 */
export const TOMBSTONE_TARGET = 'teamkit:removed';

const MAX_CHAIN_STEPS = 100_000;

/** Where one value lives: its file and the revision folder beside it. */
export interface ValuePlace {
  readonly key: string;
  /** The value's file, `<folder>/<name>`: always some revision of the value (maybe lagging). */
  readonly file: string;
  readonly name: string;
  readonly folder: string;
  /** `<folder>/.rev`, or `undefined` for a read when it does not exist. */
  readonly revisions: string | undefined;
}

/** The newest revision of a value, found by following successor links from its file. */
export type ChainHead =
  | { kind: 'absent' }
  | { kind: 'tombstone'; ino: string }
  | {
      kind: 'value';
      ino: string;
      size: number;
      modifiedAt: number;
      /** The text, when asked for. */
      text: string | undefined;
      /**
       * Whether something in `.rev` keeps this inode allocated. Only a file someone
       * wrote without the store (nlink 1, reached at the value's own name) is not.
       */
      pinned: boolean;
    };

/** `<name>@<ino>`: the revision that replaced revision `ino` (a hard link to it). */
export function successorLink(place: ValuePlace, ino: string): string {
  return path.join(place.revisions as string, `${place.name}@${ino}`);
}

/** `<name>@b<ino>`: keeps the first revision of a chain allocated once its name moves on. */
export function birthLink(place: ValuePlace, ino: string): string {
  return path.join(place.revisions as string, `${place.name}@b${ino}`);
}

/**
 * Follows the chain from the value's file to its newest revision. Reads only: each step
 * opens the next revision without following symlinks, so a planted link is refused
 * (`PATH_TRAVERSAL`) and a FIFO never blocks. A cycle (hand-made links) is corrupt.
 */
export function findHead(place: ValuePlace, withText: boolean): ChainHead {
  const { key } = place;
  let opened = openRegular(place.file, READ_FLAGS, key);
  let atFile = true;
  let tombstone: string | undefined;
  const seen = new Set<string>();
  try {
    for (let step = 0; step < MAX_CHAIN_STEPS; step += 1) {
      let ino: string;
      if (opened.kind === 'absent') {
        if (atFile) return { kind: 'absent' };
        // A successor link vanished between two steps: only `removeTree` does that.
        return { kind: 'absent' };
      }
      if (opened.kind === 'symlink') {
        if (opened.target !== TOMBSTONE_TARGET) {
          throw plantedLink(atFile ? key : `${key} (revision link)`, opened.target);
        }
        ino = opened.info.ino.toString();
        tombstone = ino;
      } else {
        ino = opened.info.ino.toString();
        tombstone = undefined;
      }
      if (seen.has(ino)) {
        throw new TeamkitError(
          'CORRUPT_DOCUMENT',
          `The revision links of ${key} form a cycle; they were edited by hand. Move the value's .rev links aside.`,
          { details: { key } },
        );
      }
      seen.add(ino);
      const next =
        place.revisions === undefined
          ? ({ kind: 'absent' } as const)
          : openRegular(successorLink(place, ino), READ_FLAGS, key);
      if (next.kind === 'absent') {
        if (tombstone !== undefined) return { kind: 'tombstone', ino: tombstone };
        if (opened.kind !== 'file') return { kind: 'absent' };
        const { fd, info } = opened;
        return {
          kind: 'value',
          ino,
          size: Number(info.size),
          modifiedAt: Number(info.mtimeMs),
          text: withText ? readOpened(fd, info, key) : undefined,
          pinned: !atFile || info.nlink > 1n,
        };
      }
      if (opened.kind === 'file') fs.closeSync(opened.fd);
      opened = next;
      atFile = false;
    }
  } finally {
    if (opened.kind === 'file') fs.closeSync(opened.fd);
  }
  throw new TeamkitError(
    'CORRUPT_DOCUMENT',
    `${key} has over ${MAX_CHAIN_STEPS} unpublished revisions; its .rev folder was tampered with.`,
    { details: { key } },
  );
}

/** Links `from` to `to`; false when `to` exists (someone else committed first). */
export function linkExclusive(from: string, to: string, key: string): boolean {
  try {
    fs.linkSync(from, to);
    return true;
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') return false;
    throw toStoreError(error, key, 'write');
  }
}

/**
 * Gives a file written without the store (at the value's name, nlink 1) a birth link, so
 * its inode number cannot be reused while a successor link names it. True when the file
 * at the value's name is still `ino`; false when it changed meanwhile.
 */
export function pinForeignRevision(place: ValuePlace, ino: string): boolean {
  const temp = path.join(place.revisions as string, `${TEMP_PREFIX}${randomUUID()}`);
  try {
    fs.linkSync(place.file, temp);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return false;
    throw toStoreError(error, place.key, 'pin the revision of');
  }
  try {
    if (fs.lstatSync(temp, { bigint: true }).ino.toString() !== ino) return false;
    fs.renameSync(temp, birthLink(place, ino));
    return true;
  } catch (error) {
    throw toStoreError(error, place.key, 'pin the revision of');
  } finally {
    removeQuietly(temp);
  }
}

/**
 * Makes the committed revision at `staged` the value's file. A stalled publisher may
 * later rename an older revision over it; readers then follow the links forward, and
 * the next write publishes the head again. A temp removed by cleanup meanwhile is fine:
 * the revision is committed and reachable through its successor link.
 */
export function publish(place: ValuePlace, staged: string): void {
  try {
    fs.renameSync(staged, place.file);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return;
    throw toStoreError(error, place.key, 'publish');
  }
}

/** The inode number in a revision token `i<ino>`; `INVALID_INPUT` for anything else. */
export function inoOfRevision(revision: string, key: string): string {
  if (typeof revision === 'string' && /^i[0-9]{1,20}$/.test(revision)) return revision.slice(1);
  throw new TeamkitError(
    'INVALID_INPUT',
    `${JSON.stringify(revision)} is not a revision of the file store; pass the revision that read ${key} returned.`,
    { details: { key, revision: String(revision) } },
  );
}

/** The token of a revision. */
export function revisionOf(ino: string): string {
  return `i${ino}`;
}
