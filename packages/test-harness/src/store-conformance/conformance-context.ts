import { setTimeout as delay } from 'node:timers/promises';
import { isTeamkitError } from '@teamkit/team-core';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { expect, type TestContext } from 'vitest';
import type { StoreProcess } from './store-process.js';

/** Registers one case that gets a fresh, empty store. */
export type StoreCase = (
  title: string,
  body: (store: TeamkitStore, context: TestContext) => Promise<void>,
) => void;

/** Registers one case that gets a fresh store and `count` processes that opened it too. */
export type ProcessCase = (
  title: string,
  count: number,
  body: (store: TeamkitStore, processes: StoreProcess[], context: TestContext) => Promise<void>,
) => void;

/** What each group of cases is given. */
export interface ConformanceCases {
  storeCase: StoreCase;
  processCase: ProcessCase;
}

/** Resolves with what `operation` threw (failing the case if it did not throw). */
export async function thrown(operation: () => Promise<unknown>): Promise<unknown> {
  try {
    await operation();
  } catch (error) {
    return error;
  }
  throw new Error('expected the operation to throw, and it did not');
}

/** Expects `operation` to throw a `TeamkitError` with `code`. */
export async function expectCode(operation: () => Promise<unknown>, code: string): Promise<void> {
  const error = await thrown(operation);
  expect(isTeamkitError(error) ? error.code : error).toBe(code);
}

/** Polls `check` until it is true; fails after `timeoutMs`. Never a fixed sleep. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}
