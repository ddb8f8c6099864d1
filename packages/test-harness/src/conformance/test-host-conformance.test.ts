import { createTestHost, type TestHostOptions } from '../index.js';
import { spawnInput } from '../test-host/test-support/host-inputs.js';
import { type HostConformanceDriver, runHostConformance } from './index.js';

const testHostDriver = (options: TestHostOptions = {}): HostConformanceDriver => {
  const host = createTestHost(options);
  return {
    host,
    spawnInput: (member) => spawnInput(member),
    makeBusy: (sessionId, busy) => host.setBusy(sessionId, busy),
    crash: (sessionId) => host.crash(sessionId),
    received: (sessionId) => host.deliveriesOf(sessionId).map((delivery) => delivery.text),
    cleanup: () => host.settled(),
  };
};

runHostConformance('test host', () => testHostDriver());

runHostConformance('test host without optional capabilities', () =>
  testHostDriver({ capabilities: { interrupt: false, stopMember: false, attachCommand: false } }),
);

// The bare minimum a harness must supply: the cases needing other hooks skip with a reason.
runHostConformance('test host with a minimal driver', () => {
  const host = createTestHost();
  return { host, spawnInput: (member) => spawnInput(member) };
});
