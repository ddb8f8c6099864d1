import { setTimeout as delay } from 'node:timers/promises';
import {
  type DeliverInput,
  type DeliveryOutcome,
  type InterruptOutcome,
  type SpawnMemberInput,
  TEAM_HOST_SPECIFICATION_VERSION,
  TeamkitError,
} from '@teamkit/team-core';
import { MemberNameSchema } from '@teamkit/team-core/schema';
import type { AgentScript, NextDeliveryOptions, ScriptedAgentContext } from './scripted-agent.js';
import type {
  IdleHandler,
  SettledOptions,
  TestHost,
  TestHostCall,
  TestHostOptions,
  TestHostScriptError,
} from './test-host-types.js';

const DEFAULT_NEXT_DELIVERY_TIMEOUT_MS = 5_000;
const DEFAULT_SETTLED_TIMEOUT_MS = 10_000;

interface Waiter {
  resolve(delivery: DeliverInput): void;
  reject(error: unknown): void;
}

interface Session {
  id: string;
  member: string;
  input: SpawnMemberInput;
  alive: boolean;
  busy: boolean;
  slowMs: number;
  failNext: { error: unknown } | undefined;
  deliveries: DeliverInput[];
  taken: number;
  waiters: Waiter[];
  controller: AbortController;
  running: Promise<void> | undefined;
}

/**
 * Creates an in-memory host (`hostId: 'test'`) whose members run {@link AgentScript}s.
 * Session ids are `test-<member>-<n>`; spawning a member again ends its previous
 * session. A script that returns leaves its session alive and idle until it is stopped;
 * a script that throws crashes it.
 */
export function createTestHost(options: TestHostOptions = {}): TestHost {
  const now = options.now ?? Date.now;
  const capabilities = {
    interrupt: options.capabilities?.interrupt !== false,
    stopMember: options.capabilities?.stopMember !== false,
    attachCommand: options.capabilities?.attachCommand !== false,
  };
  const calls: TestHostCall[] = [];
  const scriptErrors: TestHostScriptError[] = [];
  const sessions = new Map<string, Session>();
  const latestByMember = new Map<string, Session>();
  const spawnCounts = new Map<string, number>();
  let idleHandler: IdleHandler | undefined = options.onIdle;
  const idleHandlerErrors: { sessionId: string; error: unknown }[] = [];
  const pendingIdle = new Set<Promise<void>>();
  const signalIdle = (session: Session): void => {
    const handler = idleHandler;
    if (handler === undefined || !session.alive) return;
    const pending: Promise<void> = Promise.resolve()
      .then(() => handler(session.id))
      .then(
        () => undefined,
        (error: unknown) => {
          idleHandlerErrors.push({ sessionId: session.id, error });
        },
      )
      .finally(() => pendingIdle.delete(pending));
    pendingIdle.add(pending);
  };

  const scriptFor = (input: SpawnMemberInput): AgentScript | undefined => {
    const agents = options.agents;
    if (typeof agents === 'function') return agents(input);
    if (agents !== undefined && Object.hasOwn(agents, input.member.name)) {
      return agents[input.member.name];
    }
    return undefined;
  };

  const resolveTarget = (target: string): Session => {
    const session = sessions.get(target) ?? latestByMember.get(target);
    if (session === undefined) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `The test host has no member or session "${target}"; spawn the member first.`,
        { details: { target } },
      );
    }
    return session;
  };

  const endSession = (session: Session, why: string): void => {
    if (!session.alive) return;
    session.alive = false;
    session.busy = false;
    const reason = new Error(`The test session ${session.id} (member ${session.member}) ${why}.`);
    reason.name = 'AbortError';
    session.controller.abort(reason);
    for (const waiter of session.waiters.splice(0)) waiter.reject(reason);
  };

  const handOver = (session: Session, delivery: DeliverInput): void => {
    session.deliveries.push(delivery);
    const waiter = session.waiters.shift();
    if (waiter !== undefined) {
      session.taken += 1;
      waiter.resolve(delivery);
    }
  };

  const nextDelivery = (
    session: Session,
    { timeoutMs = DEFAULT_NEXT_DELIVERY_TIMEOUT_MS }: NextDeliveryOptions = {},
  ): Promise<DeliverInput> => {
    const ready = session.deliveries[session.taken];
    if (ready !== undefined) {
      session.taken += 1;
      return Promise.resolve(ready);
    }
    if (session.controller.signal.aborted) return Promise.reject(session.controller.signal.reason);
    signalIdle(session);
    return new Promise<DeliverInput>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (delivery) => {
          clearTimeout(timer);
          resolve(delivery);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        session.waiters.splice(session.waiters.indexOf(waiter), 1);
        reject(
          new Error(
            `nextDelivery timed out after ${timeoutMs} ms: the test session ${session.id} (member ${session.member}) received no new delivery; it has received ${session.deliveries.length} in all.`,
          ),
        );
      }, timeoutMs);
      session.waiters.push(waiter);
    });
  };

  const startScript = (session: Session, script: AgentScript): void => {
    const signal = session.controller.signal;
    const context: ScriptedAgentContext = {
      sessionId: session.id,
      input: session.input,
      deliveries: session.deliveries,
      signal,
      nextDelivery: (nextOptions) => nextDelivery(session, nextOptions),
    };
    session.running = Promise.resolve()
      .then(() => script(context))
      .then(
        () => signalIdle(session),
        (error: unknown) => {
          // An abort the script did not catch is the session ending, not a script bug.
          if (signal.aborted && (error === signal.reason || isAbortError(error))) return;
          scriptErrors.push({ sessionId: session.id, member: session.member, error });
          endSession(session, 'crashed because its script threw');
        },
      )
      .finally(() => {
        session.running = undefined;
      });
  };

  const record = async <T>(entry: TestHostCall, run: () => Promise<T> | T): Promise<T> => {
    calls.push(entry);
    try {
      const outcome = await run();
      (entry as { outcome?: unknown }).outcome = outcome;
      return outcome;
    } catch (error) {
      entry.error = error;
      throw error;
    }
  };

  const sessionFor = (sessionId: string): Session | undefined =>
    typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;

  const host: TestHost = {
    specificationVersion: TEAM_HOST_SPECIFICATION_VERSION,
    hostId: 'test',
    calls,
    scriptErrors,

    spawnMember(input) {
      const name = input?.member?.name;
      const entry: TestHostCall = { type: 'spawn', at: now(), member: String(name), input };
      return record(entry, () => {
        const parsed = MemberNameSchema.safeParse(name);
        if (!parsed.success) {
          throw new TeamkitError(
            'INVALID_INPUT',
            `spawnMember needs a member name in lowercase kebab-case; got ${JSON.stringify(name)}.`,
            { details: { name } },
          );
        }
        const member = parsed.data;
        const script = scriptFor(input);
        const previous = latestByMember.get(member);
        if (previous !== undefined) endSession(previous, 'was replaced by a new spawn');
        const count = (spawnCounts.get(member) ?? 0) + 1;
        spawnCounts.set(member, count);
        const session: Session = {
          id: `test-${member}-${count}`,
          member,
          input,
          alive: true,
          busy: false,
          slowMs: 0,
          failNext: undefined,
          deliveries: [],
          taken: 0,
          waiters: [],
          controller: new AbortController(),
          running: undefined,
        };
        sessions.set(session.id, session);
        latestByMember.set(member, session);
        entry.sessionId = session.id;
        if (script !== undefined) startScript(session, script);
        else queueMicrotask(() => signalIdle(session));
        return { sessionId: session.id };
      });
    },

    deliver(input) {
      const sessionId = input?.sessionId;
      const session = sessionFor(sessionId);
      const entry: TestHostCall = {
        type: 'deliver',
        at: now(),
        sessionId,
        member: session?.member,
        input,
      };
      return record(entry, async (): Promise<DeliveryOutcome> => {
        if (session !== undefined && input.member !== session.member) {
          throw new TeamkitError(
            'INVALID_INPUT',
            `deliver names member "${input.member}" but session ${session.id} belongs to "${session.member}".`,
            { details: { sessionId, member: input.member, sessionMember: session.member } },
          );
        }
        if (session?.alive && session.slowMs > 0) {
          const ms = session.slowMs;
          await delay(ms);
        }
        if (session === undefined || !session.alive) {
          throw new TeamkitError(
            'HOST_FAILED',
            `The test session ${JSON.stringify(sessionId)} is not alive; nothing was delivered.`,
            { details: { hostId: 'test', sessionId } },
          );
        }
        if (session.failNext !== undefined) {
          const { error } = session.failNext;
          session.failNext = undefined;
          throw error;
        }
        if (session.busy) return 'deferred';
        handOver(session, input);
        return 'delivered';
      });
    },

    isAlive(sessionId) {
      const session = sessionFor(sessionId);
      const entry: TestHostCall = {
        type: 'isAlive',
        at: now(),
        sessionId,
        member: session?.member,
      };
      return record(entry, () => session?.alive === true);
    },

    setBusy(target, busy) {
      const session = resolveTarget(target);
      if (session.alive) session.busy = busy;
    },

    setSlow(target, ms) {
      if (!Number.isFinite(ms) || ms < 0) {
        throw new TeamkitError(
          'INVALID_INPUT',
          `setSlow needs a delay of 0 ms or more; got ${ms}.`,
          { details: { ms } },
        );
      }
      resolveTarget(target).slowMs = ms;
    },

    failNextDelivery(target, error) {
      const session = resolveTarget(target);
      session.failNext = {
        error:
          error ??
          new TeamkitError(
            'HOST_FAILED',
            `Simulated failure while delivering to the test session ${session.id}.`,
            { details: { hostId: 'test', sessionId: session.id } },
          ),
      };
    },

    crash(target) {
      endSession(resolveTarget(target), 'crashed');
    },

    sessionOf: (member) => latestByMember.get(member)?.id,
    memberOf: (sessionId) => sessions.get(sessionId)?.member,
    deliveriesOf: (target) => resolveTarget(target).deliveries,

    idleHandlerErrors,
    setIdleHandler(handler) {
      idleHandler = handler;
    },
    async settled({ timeoutMs = DEFAULT_SETTLED_TIMEOUT_MS }: SettledOptions = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const running = [...sessions.values()].filter((session) => session.running);
        if (running.length === 0) {
          if (pendingIdle.size === 0) return;
          await Promise.all(pendingIdle);
          continue;
        }
        const remaining = deadline - Date.now();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timedOut = await Promise.race([
          Promise.all(running.map((session) => session.running)).then(() => false),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(true), Math.max(remaining, 0));
          }),
        ]);
        clearTimeout(timer);
        if (timedOut) {
          const names = running.map((session) => session.id).join(', ');
          throw new Error(
            `settled timed out after ${timeoutMs} ms; scripts still running in: ${names}.`,
          );
        }
      }
    },
  };

  if (capabilities.interrupt) {
    host.interrupt = (sessionId) => {
      const session = sessionFor(sessionId);
      const entry: TestHostCall = {
        type: 'interrupt',
        at: now(),
        sessionId,
        member: session?.member,
      };
      return record(entry, (): InterruptOutcome => {
        if (session === undefined || !session.alive) return 'unknown';
        if (!session.busy) return 'idle';
        session.busy = false;
        return 'interrupted';
      });
    };
  }
  if (capabilities.stopMember) {
    host.stopMember = (sessionId) => {
      const session = sessionFor(sessionId);
      const entry: TestHostCall = { type: 'stop', at: now(), sessionId, member: session?.member };
      return record(entry, () => {
        if (session !== undefined) endSession(session, 'was stopped');
      });
    };
  }
  if (capabilities.attachCommand) {
    host.attachCommand = (sessionId) => {
      const session = sessionFor(sessionId);
      const outcome = session?.alive ? ['printf', '%s\n', `test session ${session.id}`] : undefined;
      calls.push({ type: 'attach', at: now(), sessionId, member: session?.member, outcome });
      return outcome;
    };
  }
  return host;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
