import { randomUUID } from 'node:crypto';
import {
  assertTeamHost,
  type DeliverInput,
  type DeliveryOutcome,
  isTeamkitError,
  type Message,
  requireHostCapability,
  type SpawnMemberInput,
  TEAM_HOST_SPECIFICATION_VERSION,
  type TeamHostCapability,
  type TeamHostV1,
} from '@teamkit/team-core';
import { describe, expect, it, type TestContext } from 'vitest';

/**
 * What a harness hands the conformance suite: a fresh host plus the hooks the suite
 * needs to set up situations only the harness knows how to cause. One driver is made
 * per case and cleaned up after it.
 */
export interface HostConformanceDriver {
  /** The host under test. */
  host: TeamHostV1;
  /** A valid spawn input for `member` (the suite passes lowercase kebab-case names). */
  spawnInput(member: string): SpawnMemberInput;
  /**
   * Resolves once a freshly spawned session is idle and would accept a delivery, for
   * hosts whose sessions start with a busy first turn. Omit when sessions are idle at once.
   */
  waitForIdle?(sessionId: string): Promise<void> | void;
  /** Makes the session busy (or idle again) so `deliver` must answer `deferred`. */
  makeBusy?(sessionId: string, busy: boolean): Promise<void> | void;
  /** Kills the session the way a real crash would (a killed process, a lost session). */
  crash?(sessionId: string): Promise<void> | void;
  /** The texts the session has been shown so far, so the suite can check nothing crossed. */
  received?(sessionId: string): Promise<readonly string[]> | readonly string[];
  /** Releases whatever the driver made: processes, sessions, temp folders. */
  cleanup?(): Promise<void> | void;
}

/** Options for {@link runHostConformance}. */
export interface HostConformanceOptions {
  /** The timeout of each case in milliseconds; 30000 when omitted. */
  timeoutMs?: number;
  /** Two distinct member names the suite spawns; `['alpha', 'beta']` when omitted. */
  members?: readonly [string, string];
}

const INTERRUPT_OUTCOMES = ['interrupted', 'idle', 'unknown'];

/**
 * Registers a vitest suite named `name` that checks a {@link TeamHostV1} implementation
 * against the contract the runtime relies on. Call it at the top level of a test file;
 * `createHost` is called once per case. Cases the driver cannot set up (no `makeBusy`,
 * `crash` or `received`) are skipped with the reason.
 */
export function runHostConformance(
  name: string,
  createHost: () => Promise<HostConformanceDriver> | HostConformanceDriver,
  options: HostConformanceOptions = {},
): void {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const [first, second] = options.members ?? ['alpha', 'beta'];

  const withDriver = async (body: (driver: HostConformanceDriver) => Promise<void>) => {
    const driver = await createHost();
    try {
      await body(driver);
    } finally {
      await driver.cleanup?.();
    }
  };

  const spawnIdle = async (driver: HostConformanceDriver, member: string): Promise<string> => {
    const { sessionId } = await driver.host.spawnMember(driver.spawnInput(member));
    await driver.waitForIdle?.(sessionId);
    return sessionId;
  };

  const delivery = (driver: HostConformanceDriver, member: string, sessionId: string) =>
    conformanceDelivery(driver.spawnInput(member), sessionId);

  const conformanceCase = (
    title: string,
    body: (driver: HostConformanceDriver, context: TestContext) => Promise<void>,
  ) => it(title, (context) => withDriver((driver) => body(driver, context)), timeoutMs);

  describe(`${name}: host conformance (${TEAM_HOST_SPECIFICATION_VERSION})`, () => {
    conformanceCase('speaks team-host-v1 and names itself', async ({ host }) => {
      expect(host.specificationVersion).toBe(TEAM_HOST_SPECIFICATION_VERSION);
      expect(typeof host.hostId).toBe('string');
      expect(host.hostId.length).toBeGreaterThan(0);
    });

    conformanceCase('passes assertTeamHost', async ({ host }) => {
      expect(assertTeamHost(host)).toBe(host);
    });

    conformanceCase(
      'spawnMember returns a non-empty session id, new for every spawn',
      async (driver) => {
        const ids = [
          (await driver.host.spawnMember(driver.spawnInput(first))).sessionId,
          (await driver.host.spawnMember(driver.spawnInput(second))).sessionId,
          (await driver.host.spawnMember(driver.spawnInput(first))).sessionId,
        ];
        for (const id of ids) {
          expect(typeof id).toBe('string');
          expect(id.length).toBeGreaterThan(0);
        }
        expect(new Set(ids).size).toBe(ids.length);
      },
    );

    conformanceCase(
      'isAlive is true after spawn and false for an unknown session id',
      async (driver) => {
        const sessionId = await spawnIdle(driver, first);
        expect(await driver.host.isAlive(sessionId)).toBe(true);
        expect(await driver.host.isAlive(`conformance-unknown-${randomUUID()}`)).toBe(false);
      },
    );

    conformanceCase('deliver to an idle live session answers delivered', async (driver) => {
      const sessionId = await spawnIdle(driver, first);
      const input = delivery(driver, first, sessionId);
      expect(await driver.host.deliver(input)).toBe('delivered');
      if (driver.received) expect(await driver.received(sessionId)).toContain(input.text);
    });

    conformanceCase('deliver to a busy session answers deferred', async (driver, context) => {
      if (!driver.makeBusy) return context.skip('the driver has no makeBusy');
      const sessionId = await spawnIdle(driver, first);
      await driver.makeBusy(sessionId, true);
      const input = delivery(driver, first, sessionId);
      expect(await driver.host.deliver(input)).toBe('deferred');
      if (driver.received) expect(await driver.received(sessionId)).not.toContain(input.text);
      await driver.makeBusy(sessionId, false);
      expect(await driver.host.deliver(delivery(driver, first, sessionId))).toBe('delivered');
    });

    conformanceCase(
      'after a crash, isAlive is false and deliver does not answer delivered',
      async (driver, context) => {
        if (!driver.crash) return context.skip('the driver has no crash');
        const sessionId = await spawnIdle(driver, first);
        await driver.crash(sessionId);
        expect(await driver.host.isAlive(sessionId)).toBe(false);
        const outcome = await driver.host.deliver(delivery(driver, first, sessionId)).then(
          (value): DeliveryOutcome | 'threw' => value,
          () => 'threw' as const,
        );
        expect(outcome).not.toBe('delivered');
      },
    );

    conformanceCase(
      'interrupt answers interrupted, idle or unknown, or is absent',
      async (driver) => {
        if (!hasCapability(driver.host, 'interrupt'))
          return expectUnsupported(driver.host, 'interrupt');
        const interrupt = requireHostCapability(driver.host, 'interrupt');
        const sessionId = await spawnIdle(driver, first);
        expect(INTERRUPT_OUTCOMES).toContain(await interrupt(sessionId));
        if (driver.makeBusy) {
          await driver.makeBusy(sessionId, true);
          expect(INTERRUPT_OUTCOMES).toContain(await interrupt(sessionId));
        }
      },
    );

    conformanceCase('stopMember ends the session, or is absent', async (driver) => {
      if (!hasCapability(driver.host, 'stopMember')) {
        return expectUnsupported(driver.host, 'stopMember');
      }
      const stopMember = requireHostCapability(driver.host, 'stopMember');
      const sessionId = await spawnIdle(driver, first);
      await stopMember(sessionId);
      expect(await driver.host.isAlive(sessionId)).toBe(false);
    });

    conformanceCase(
      'attachCommand returns an argument array or undefined, or is absent',
      async (driver) => {
        if (!hasCapability(driver.host, 'attachCommand')) {
          return expectUnsupported(driver.host, 'attachCommand');
        }
        const attachCommand = requireHostCapability(driver.host, 'attachCommand');
        const sessionId = await spawnIdle(driver, first);
        const argv = attachCommand(sessionId);
        if (argv !== undefined) {
          expect(Array.isArray(argv)).toBe(true);
          expect(argv.length).toBeGreaterThan(0);
          for (const arg of argv) expect(typeof arg).toBe('string');
        }
      },
    );

    conformanceCase(
      'concurrent deliveries to two members both answer delivered',
      async (driver) => {
        const [a, b] = await Promise.all([spawnIdle(driver, first), spawnIdle(driver, second)]);
        const outcomes = await Promise.all([
          driver.host.deliver(delivery(driver, first, a)),
          driver.host.deliver(delivery(driver, second, b)),
        ]);
        expect(outcomes).toEqual(['delivered', 'delivered']);
      },
    );

    conformanceCase(
      'concurrent deliveries do not cross: each session receives only its own',
      async (driver, context) => {
        if (!driver.received) return context.skip('the driver has no received');
        const [a, b] = await Promise.all([spawnIdle(driver, first), spawnIdle(driver, second)]);
        const toFirst = [1, 2, 3].map(() => delivery(driver, first, a));
        const toSecond = [1, 2, 3].map(() => delivery(driver, second, b));
        const outcomes = await Promise.all(
          interleave(toFirst, toSecond).map((input) => driver.host.deliver(input)),
        );
        expect(outcomes.every((outcome) => outcome === 'delivered')).toBe(true);
        const seenByFirst = await driver.received(a);
        const seenBySecond = await driver.received(b);
        for (const input of toFirst) {
          expect(seenByFirst).toContain(input.text);
          expect(seenBySecond).not.toContain(input.text);
        }
        for (const input of toSecond) {
          expect(seenBySecond).toContain(input.text);
          expect(seenByFirst).not.toContain(input.text);
        }
      },
    );
  });
}

function hasCapability(host: TeamHostV1, capability: TeamHostCapability): boolean {
  return typeof host[capability] === 'function';
}

function expectUnsupported(host: TeamHostV1, capability: TeamHostCapability): Promise<void> {
  let thrown: unknown;
  try {
    requireHostCapability(host, capability);
  } catch (error) {
    thrown = error;
  }
  expect(isTeamkitError(thrown, 'HOST_CAPABILITY_UNSUPPORTED')).toBe(true);
  return Promise.resolve();
}

function interleave<T>(left: readonly T[], right: readonly T[]): T[] {
  return left.flatMap((item, index) => {
    const other = right[index];
    return other === undefined ? [item] : [item, other];
  });
}

/** One message from the lead to the member, with a unique marker in its text. */
function conformanceDelivery(spawnInput: SpawnMemberInput, sessionId: string): DeliverInput {
  const member = spawnInput.member.name;
  const messageId = randomUUID();
  const body = `conformance message ${messageId} for ${member}`;
  const message: Message = {
    version: 1,
    messageId,
    runId: spawnInput.runId,
    from: 'lead',
    to: member,
    kind: 'message',
    body,
    timestamp: Date.now(),
  };
  return { runId: spawnInput.runId, member, sessionId, messages: [message], text: body };
}
