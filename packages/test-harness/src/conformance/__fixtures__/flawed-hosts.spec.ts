// Run by run-host-conformance.test.ts in its own vitest process: each host below breaks
// one rule of the contract, and the suite must fail exactly the cases that check it.
import { createTestHost, type TestHost } from '../../index.js';
import { spawnInput } from '../../test-host/test-support/host-inputs.js';
import { type HostConformanceDriver, runHostConformance } from '../index.js';

const driverFor = (flaw: (host: TestHost) => Partial<TestHost>) => (): HostConformanceDriver => {
  const real = createTestHost();
  const host = { ...real, ...flaw(real) };
  return {
    host,
    spawnInput: (member) => spawnInput(member),
    makeBusy: (sessionId, busy) => real.setBusy(sessionId, busy),
    crash: (sessionId) => real.crash(sessionId),
    received: (sessionId) => real.deliveriesOf(sessionId).map((delivery) => delivery.text),
  };
};

runHostConformance(
  'ignores busy',
  driverFor((real) => ({
    deliver: async (input) => {
      real.setBusy(input.sessionId, false);
      return real.deliver(input);
    },
  })),
);

runHostConformance(
  'never dies',
  driverFor(() => ({ isAlive: async () => true })),
);

runHostConformance(
  'reuses session ids',
  driverFor((real) => {
    const firstIds = new Map<string, string>();
    return {
      spawnMember: async (input) => {
        const { sessionId } = await real.spawnMember(input);
        const first = firstIds.get(input.member.name) ?? sessionId;
        firstIds.set(input.member.name, first);
        return { sessionId: first };
      },
    };
  }),
);

runHostConformance(
  'crosses deliveries',
  driverFor((real) => ({
    deliver: (input) => {
      const sessionId = real.sessionOf('alpha') ?? input.sessionId;
      return real.deliver({ ...input, member: 'alpha', sessionId });
    },
  })),
);

runHostConformance(
  'bad optional methods',
  driverFor(() => ({
    interrupt: async () => 'stopped' as never,
    stopMember: async () => undefined,
    attachCommand: () => 'tmux attach' as never,
  })),
);
