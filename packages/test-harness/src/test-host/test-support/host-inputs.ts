import { randomUUID } from 'node:crypto';
import type { DeliverInput, Message, SpawnMemberInput } from '@teamkit/team-core';

export const RUN_ID = '00000000-0000-4000-8000-000000000001';

export function spawnInput(
  member: string,
  overrides: Partial<SpawnMemberInput> = {},
): SpawnMemberInput {
  return {
    runId: RUN_ID,
    teamName: 'test-team',
    member: { name: member, role: 'worker', isLead: false, prompt: `You are ${member}.` },
    cwd: '.',
    env: { TEAMKIT_HOME: '.teamkit-test', TEAMKIT_RUN: RUN_ID, TEAMKIT_MEMBER: member },
    ...overrides,
  };
}

export function deliverInput(
  member: string,
  sessionId: string,
  body = `hello ${member}`,
): DeliverInput {
  const message: Message = {
    version: 1,
    messageId: randomUUID(),
    runId: RUN_ID,
    from: 'lead',
    to: member,
    kind: 'message',
    body,
    timestamp: 0,
  };
  return { runId: RUN_ID, member, sessionId, messages: [message], text: body };
}
