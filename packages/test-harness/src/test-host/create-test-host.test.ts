import { type DeliverInput, isTeamkitError, requireHostCapability } from '@teamkit/team-core';
import { describe, expect, it } from 'vitest';
import { createTestHost } from './create-test-host.js';
import { deliverInput, spawnInput } from './test-support/host-inputs.js';

describe('createTestHost', () => {
  it('records every call in order with its outcome', async () => {
    let clock = 100;
    const host = createTestHost({ now: () => clock++ });
    const { sessionId } = await host.spawnMember(spawnInput('writer'));
    await host.deliver(deliverInput('writer', sessionId));
    await host.isAlive(sessionId);
    await host.interrupt?.(sessionId);
    host.attachCommand?.(sessionId);
    await host.stopMember?.(sessionId);

    expect(host.calls.map((call) => [call.type, call.at, call.sessionId, call.member])).toEqual([
      ['spawn', 100, sessionId, 'writer'],
      ['deliver', 101, sessionId, 'writer'],
      ['isAlive', 102, sessionId, 'writer'],
      ['interrupt', 103, sessionId, 'writer'],
      ['attach', 104, sessionId, 'writer'],
      ['stop', 105, sessionId, 'writer'],
    ]);
    expect(host.calls.map((call) => call.outcome)).toEqual([
      { sessionId },
      'delivered',
      true,
      'idle',
      ['printf', '%s\n', `test session ${sessionId}`],
      undefined,
    ]);
  });

  it('gives every spawn a new session id and ends the previous session of the member', async () => {
    const host = createTestHost();
    const first = await host.spawnMember(spawnInput('writer'));
    const other = await host.spawnMember(spawnInput('reviewer'));
    const second = await host.spawnMember(spawnInput('writer'));

    expect(first.sessionId).toBe('test-writer-1');
    expect(other.sessionId).toBe('test-reviewer-1');
    expect(second.sessionId).toBe('test-writer-2');
    expect(await host.isAlive(first.sessionId)).toBe(false);
    expect(await host.isAlive(second.sessionId)).toBe(true);
    expect(host.sessionOf('writer')).toBe(second.sessionId);
    expect(host.memberOf(first.sessionId)).toBe('writer');
    expect(host.memberOf('test-nobody-1')).toBeUndefined();
  });

  it('refuses a member name that is not kebab-case', async () => {
    const host = createTestHost();
    const error = await host.spawnMember(spawnInput('Bad Name; rm')).catch((e: unknown) => e);
    expect(isTeamkitError(error, 'INVALID_INPUT')).toBe(true);
    expect(host.calls[0]?.error).toBe(error);
  });

  it('hands deliveries to the script through nextDelivery, in order', async () => {
    const seen: string[] = [];
    const host = createTestHost({
      agents: {
        writer: async (agent) => {
          expect(agent.input.env.TEAMKIT_MEMBER).toBe('writer');
          for (let i = 0; i < 2; i += 1) seen.push((await agent.nextDelivery()).text);
        },
      },
    });
    const { sessionId } = await host.spawnMember(spawnInput('writer'));
    await host.deliver(deliverInput('writer', sessionId, 'one'));
    await host.deliver(deliverInput('writer', sessionId, 'two'));
    await host.settled();

    expect(seen).toEqual(['one', 'two']);
    expect(host.scriptErrors).toEqual([]);
    // A finished script leaves its session alive and idle.
    expect(await host.isAlive(sessionId)).toBe(true);
  });

  it('answers deferred while busy, hands nothing over, and delivers again when free', async () => {
    const host = createTestHost();
    const { sessionId } = await host.spawnMember(spawnInput('writer'));
    host.setBusy('writer', true);

    expect(await host.deliver(deliverInput('writer', sessionId, 'early'))).toBe('deferred');
    expect(host.deliveriesOf('writer')).toEqual([]);
    expect(host.calls.at(-1)).toMatchObject({ type: 'deliver', outcome: 'deferred' });

    host.setBusy(sessionId, false);
    expect(await host.deliver(deliverInput('writer', sessionId, 'later'))).toBe('delivered');
    expect(host.deliveriesOf(sessionId).map((d) => d.text)).toEqual(['later']);
  });

  it('interrupting a busy session makes it idle', async () => {
    const host = createTestHost();
    const { sessionId } = await host.spawnMember(spawnInput('writer'));
    const interrupt = requireHostCapability(host, 'interrupt');
    host.setBusy('writer', true);

    expect(await interrupt(sessionId)).toBe('interrupted');
    expect(await interrupt(sessionId)).toBe('idle');
    expect(await interrupt('test-nobody-1')).toBe('unknown');
  });

  it('makes a slow delivery wait, and fails it if the session dies meanwhile', async () => {
    const host = createTestHost();
    const { sessionId } = await host.spawnMember(spawnInput('writer'));
    host.setSlow('writer', 20);

    const pending = host.deliver(deliverInput('writer', sessionId));
    expect(host.calls.at(-1)?.type).toBe('deliver');
    expect(host.calls.at(-1)?.outcome).toBeUndefined();
    expect(host.deliveriesOf('writer')).toEqual([]);
    expect(await pending).toBe('delivered');

    const doomed = host.deliver(deliverInput('writer', sessionId)).catch((e: unknown) => e);
    host.crash('writer');
    expect(isTeamkitError(await doomed, 'HOST_FAILED')).toBe(true);
    expect(host.deliveriesOf('writer')).toHaveLength(1);
  });

  it('crash kills the session, aborts its script and refuses deliveries', async () => {
    let aborted = false;
    const host = createTestHost({
      agents: {
        writer: async (agent) => {
          agent.signal.addEventListener('abort', () => {
            aborted = true;
          });
          await agent.nextDelivery({ timeoutMs: 30_000 });
        },
      },
    });
    const { sessionId } = await host.spawnMember(spawnInput('writer'));
    host.crash('writer');
    await host.settled();

    expect(aborted).toBe(true);
    expect(await host.isAlive(sessionId)).toBe(false);
    // The abort the script did not catch is the crash itself, not a script error.
    expect(host.scriptErrors).toEqual([]);
    const error = await host.deliver(deliverInput('writer', sessionId)).catch((e: unknown) => e);
    expect(isTeamkitError(error, 'HOST_FAILED')).toBe(true);
    expect(host.attachCommand?.(sessionId)).toBeUndefined();
  });

  it('failNextDelivery throws once, hands nothing over, then delivers again', async () => {
    const host = createTestHost();
    const { sessionId } = await host.spawnMember(spawnInput('writer'));
    const boom = new Error('connection reset');
    host.failNextDelivery('writer', boom);

    await expect(host.deliver(deliverInput('writer', sessionId, 'lost'))).rejects.toBe(boom);
    expect(host.calls.at(-1)).toMatchObject({ type: 'deliver', error: boom });
    expect(host.deliveriesOf('writer')).toEqual([]);
    expect(await host.isAlive(sessionId)).toBe(true);
    expect(await host.deliver(deliverInput('writer', sessionId, 'kept'))).toBe('delivered');

    host.failNextDelivery(sessionId);
    const fallback = await host.deliver(deliverInput('writer', sessionId)).catch((e: unknown) => e);
    expect(isTeamkitError(fallback, 'HOST_FAILED')).toBe(true);
  });

  it('captures script errors and crashes the session that threw', async () => {
    const boom = new Error('script bug');
    const host = createTestHost({
      agents: (input) =>
        input.member.name === 'writer'
          ? async () => {
              throw boom;
            }
          : undefined,
    });
    const writer = await host.spawnMember(spawnInput('writer'));
    const reviewer = await host.spawnMember(spawnInput('reviewer'));
    await host.settled();

    expect(host.scriptErrors).toEqual([
      { sessionId: writer.sessionId, member: 'writer', error: boom },
    ]);
    expect(await host.isAlive(writer.sessionId)).toBe(false);
    expect(await host.isAlive(reviewer.sessionId)).toBe(true);
  });

  it('rejects nextDelivery with a clear error when nothing arrives in time', async () => {
    let caught: unknown;
    const host = createTestHost({
      agents: {
        writer: async (agent) => {
          caught = await agent.nextDelivery({ timeoutMs: 10 }).catch((e: unknown) => e);
        },
      },
    });
    await host.spawnMember(spawnInput('writer'));
    await host.settled();

    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toMatch(
      /nextDelivery timed out after 10 ms: the test session test-writer-1 \(member writer\)/,
    );
  });

  it('a script that waits too long is recorded as a script error', async () => {
    const host = createTestHost({
      agents: { writer: async (agent) => void (await agent.nextDelivery({ timeoutMs: 10 })) },
    });
    await host.spawnMember(spawnInput('writer'));
    await host.settled();

    expect(host.scriptErrors).toHaveLength(1);
    expect(host.scriptErrors[0]?.error).toBeInstanceOf(Error);
    expect(String(host.scriptErrors[0]?.error)).toMatch(/timed out/);
  });

  it('stopMember ends the session and is harmless for unknown sessions', async () => {
    const host = createTestHost({
      agents: { writer: async (agent) => void (await agent.nextDelivery({ timeoutMs: 30_000 })) },
    });
    const { sessionId } = await host.spawnMember(spawnInput('writer'));
    const stop = requireHostCapability(host, 'stopMember');
    await stop(sessionId);
    await stop('test-nobody-1');
    await host.settled();

    expect(await host.isAlive(sessionId)).toBe(false);
    expect(host.scriptErrors).toEqual([]);
  });

  it('leaves optional methods off when their capability is false', () => {
    const host = createTestHost({
      capabilities: { interrupt: false, stopMember: false, attachCommand: false },
    });
    for (const capability of ['interrupt', 'stopMember', 'attachCommand'] as const) {
      expect(capability in host).toBe(false);
      expect(() => requireHostCapability(host, capability)).toThrow(
        expect.objectContaining({ code: 'HOST_CAPABILITY_UNSUPPORTED' }),
      );
    }
  });

  it('refuses a delivery whose member does not own the session', async () => {
    const host = createTestHost();
    const writer = await host.spawnMember(spawnInput('writer'));
    await host.spawnMember(spawnInput('reviewer'));
    const input: DeliverInput = deliverInput('reviewer', writer.sessionId);

    const error = await host.deliver(input).catch((e: unknown) => e);
    expect(isTeamkitError(error, 'INVALID_INPUT')).toBe(true);
    expect(host.deliveriesOf('writer')).toEqual([]);
  });

  it('refuses controls for a member that was never spawned', () => {
    const host = createTestHost();
    expect(() => host.setBusy('ghost', true)).toThrow(/no member or session "ghost"/);
  });

  it('settled rejects, naming the sessions, when scripts outlive the timeout', async () => {
    const host = createTestHost({
      agents: { writer: async (agent) => void (await agent.nextDelivery({ timeoutMs: 30_000 })) },
    });
    await host.spawnMember(spawnInput('writer'));

    await expect(host.settled({ timeoutMs: 10 })).rejects.toThrow(/test-writer-1/);
    host.crash('writer');
    await host.settled();
  });
});
