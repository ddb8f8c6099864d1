import { randomUUID } from 'node:crypto';
import { runHostConformance } from '@teamkit/test-harness/conformance';
import { createOpenCodeHost } from './opencode-host.js';
import { createFakeOpenCodeClient } from './test-support/fake-opencode-client.js';

const LEAD = 'ses_conformance_lead';

runHostConformance('OpenCode host over a recorded client', () => {
  const client = createFakeOpenCodeClient(['conformance-alpha', 'conformance-beta']);
  client.addSession(LEAD);
  const host = createOpenCodeHost({ client, confirmTimeoutMs: 500, confirmIntervalMs: 10 });
  const runId = randomUUID();
  return {
    host,
    spawnInput: (member) => ({
      runId,
      teamName: 'conformance',
      member: { name: member, role: 'worker', isLead: false, prompt: 'Wait for messages.' },
      cwd: '/',
      env: { TEAMKIT_RUN: runId, TEAMKIT_MEMBER: member },
      leadSessionId: LEAD,
    }),
    makeBusy: (sessionId, busy) => client.setBusy(sessionId, busy),
    crash: (sessionId) => client.deleteSession(sessionId),
    received: (sessionId) => client.received(sessionId),
  };
});
