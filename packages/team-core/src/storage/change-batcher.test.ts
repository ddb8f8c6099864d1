import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createChangeBatcher } from './change-batcher.js';

interface Change {
  key: string;
  kind: string;
}

function collector(delayMs: number, merge?: (earlier: Change, later: Change) => Change) {
  const batches: Change[][] = [];
  const errors: unknown[] = [];
  let delivered: () => void = () => {};
  const batcher = createChangeBatcher<Change>({
    delayMs,
    keyOf: (change) => change.key,
    ...(merge === undefined ? {} : { merge }),
    deliver: (changes) => {
      batches.push(changes);
      delivered();
    },
    onError: (error) => errors.push(error),
  });
  const next = () =>
    new Promise<void>((resolve) => {
      delivered = resolve;
    });
  return { batcher, batches, errors, next };
}

describe('createChangeBatcher', () => {
  it('delivers a burst as one batch in key order, one change per key, the later winning', async () => {
    const { batcher, batches, next } = collector(20);
    const arrived = next();
    batcher.add({ key: 'b', kind: 'put' });
    batcher.add({ key: 'a', kind: 'put' });
    batcher.add({ key: 'b', kind: 'delete' });
    await arrived;
    expect(batches).toEqual([
      [
        { key: 'a', kind: 'put' },
        { key: 'b', kind: 'delete' },
      ],
    ]);
  });

  it('combines changes of one key with merge when given', async () => {
    const { batcher, batches, next } = collector(0, (earlier, later) =>
      earlier.kind === 'unknown' ? earlier : later,
    );
    const arrived = next();
    batcher.add({ key: 'c', kind: 'unknown' });
    batcher.add({ key: 'c', kind: 'put' });
    await arrived;
    expect(batches).toEqual([[{ key: 'c', kind: 'unknown' }]]);
  });

  it('with no delay delivers on the next turn of the event loop', async () => {
    const { batcher, batches } = collector(0);
    batcher.add({ key: 'a', kind: 'put' });
    expect(batches).toEqual([]);
    await nextTurn();
    expect(batches).toEqual([[{ key: 'a', kind: 'put' }]]);
  });

  it('flush delivers at once; stop drops the open batch and everything after it', async () => {
    const { batcher, batches } = collector(60_000);
    batcher.add({ key: 'a', kind: 'put' });
    batcher.flush();
    expect(batches).toEqual([[{ key: 'a', kind: 'put' }]]);
    batcher.add({ key: 'b', kind: 'put' });
    batcher.stop();
    batcher.add({ key: 'c', kind: 'put' });
    batcher.flush();
    batcher.stop();
    expect(batches).toHaveLength(1);
  });

  it('sends an error of the callback to onError and goes on batching', async () => {
    const errors: unknown[] = [];
    const batches: string[][] = [];
    const batcher = createChangeBatcher<string>({
      delayMs: 0,
      keyOf: (key) => key,
      deliver: (keys) => {
        batches.push(keys);
        if (keys.includes('bad')) throw new Error('listener failed');
      },
      onError: (error) => {
        errors.push(error);
        throw new Error('a throwing handler is ignored too');
      },
    });
    batcher.add('bad');
    batcher.flush();
    batcher.add('good');
    batcher.flush();
    expect(batches).toEqual([['bad'], ['good']]);
    expect(errors).toHaveLength(1);
  });

  it('keeps a change added while a batch is delivered for the next batch', async () => {
    const batches: string[][] = [];
    let arrived: () => void = () => {};
    const second = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const batcher = createChangeBatcher<string>({
      delayMs: 0,
      keyOf: (key) => key,
      deliver: (keys) => {
        batches.push(keys);
        if (batches.length === 1) {
          batcher.add('later');
          batcher.flush();
          expect(batches).toHaveLength(1);
        } else arrived();
      },
    });
    batcher.add('first');
    batcher.flush();
    await second;
    expect(batches).toEqual([['first'], ['later']]);
  });
});
