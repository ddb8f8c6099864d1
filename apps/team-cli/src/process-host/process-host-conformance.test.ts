import { mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { issueMemberCredential, type SpawnMemberInput } from '@teamkit/team-core';
import { TeamSpecSchema } from '@teamkit/team-core/schema';
import { createRunState, transitionRun } from '@teamkit/team-core/state';
import { createFileStore } from '@teamkit/team-core/storage';
import { runHostConformance } from '@teamkit/test-harness/conformance';
import { CLI_BIN } from '../test-support/run-cli.js';
import { createProcessHost } from './create-process-host.js';
import { readWaitingMarker } from './index.js';
import { isProcessSessionAlive, parseProcessSessionId } from './process-session.js';

const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '__fixtures__',
  'inbox-loop.mjs',
);

async function waitUntil(
  what: string,
  probe: () => Promise<boolean> | boolean,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

runHostConformance(
  'process host',
  async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'teamkit-process-host-'));
    const spec = TeamSpecSchema.parse({
      id: 'conformance',
      name: 'conformance',
      lead: 'lead',
      members: [
        { name: 'lead', role: 'lead', prompt: 'lead' },
        { name: 'alpha', role: 'worker', prompt: 'alpha' },
        { name: 'beta', role: 'worker', prompt: 'beta' },
      ],
    });
    const state = await createRunState(
      home,
      {
        spec,
        teamSource: { scope: 'inline' },
        hostId: 'process',
      },
      { store: createFileStore({ root: home }) },
    );
    await transitionRun(home, state.runId, 'active', { store: createFileStore({ root: home }) });
    // What the runtime does before each spawn: a secret per member, only its hash on disk.
    const tokens = new Map<string, string>();
    for (const member of ['alpha', 'beta'])
      tokens.set(
        member,
        await issueMemberCredential(home, state.runId, member, {
          store: createFileStore({ root: home }),
        }),
      );
    const host = createProcessHost({
      store: createFileStore({ root: home }),
      home,
      agentCommand: `'${process.execPath}' '${fixture}' '${CLI_BIN}'`,
      handoffTimeoutMs: 10_000,
      stopGraceMs: 2_000,
    });
    const memberOf = (sessionId: string) => host.started.get(sessionId)?.member ?? '';
    return {
      host,
      spawnInput: (member: string): SpawnMemberInput => ({
        runId: state.runId,
        teamName: 'conformance',
        member: { name: member, role: 'worker', isLead: false, prompt: `You are ${member}.` },
        cwd: home,
        env: {
          TEAMKIT_HOME: home,
          TEAMKIT_RUN: state.runId,
          TEAMKIT_MEMBER: member,
          TEAMKIT_TOKEN: tokens.get(member) ?? '',
        },
      }),
      waitForIdle: (sessionId: string) =>
        waitUntil('the member to wait for mail', async () => {
          const marker = await readWaitingMarker(
            state.runId,
            memberOf(sessionId),
            createFileStore({ root: home }),
          );
          return marker?.handoff === true;
        }),
      crash: async (sessionId: string) => {
        const pid = host.started.get(sessionId)?.pid ?? 0;
        process.kill(-pid, 'SIGKILL');
        const session = parseProcessSessionId(sessionId);
        await waitUntil(
          'the process to die',
          () => session === undefined || !isProcessSessionAlive(session),
        );
      },
      received: async (sessionId: string) => {
        const log = host.started.get(sessionId)?.logFile;
        return log === undefined ? [] : (await readFile(log, 'utf8')).split('\n');
      },
      cleanup: async () => {
        for (const member of host.started.values()) {
          try {
            process.kill(-member.pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
        await rm(home, { recursive: true, force: true, maxRetries: 3 });
      },
    };
  },
  { timeoutMs: 60_000 },
);
