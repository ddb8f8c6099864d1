import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import {
  createMemberClient,
  isTeamkitError,
  type MemberClient,
  type Message,
  type MessageKind,
  type Task,
  TeamkitError,
} from '@teamkit/team-core';
import { containedPath, createFileStore, type TeamkitStore } from '@teamkit/team-core/storage';
import type { AgentScript, ScriptedAgentContext } from '../test-host/index.js';

const run = promisify(execFile);

/** Which messages {@link AgentActions.waitForMail} waits for. */
export interface MailFilter {
  kind?: MessageKind | readonly MessageKind[];
  from?: string;
}

/**
 * The typed steps a scripted agent takes, over the member's own client (built from the
 * `TEAMKIT_*` environment its host gave it) and the deliveries its session receives.
 */
export interface AgentActions {
  readonly name: string;
  readonly cwd: string;
  readonly client: MemberClient;
  /** Messages received so far (deduplicated by id), oldest first. */
  readonly received: readonly Message[];
  /** Waits for the next delivered message that matches; earlier unmatched ones are kept for later calls. */
  waitForMail(filter?: MailFilter, options?: { timeoutMs?: number }): Promise<Message>;
  /** Claims the first ready task that `match` accepts; `undefined` when none could be claimed. */
  claimNextReadyTask(match?: (task: Task) => boolean): Promise<Task | undefined>;
  /** Writes a file in the member's folder (its worktree) and commits it; returns the commit sha. */
  commitFile(relativePath: string, content: string, message?: string): Promise<string>;
  start(taskId: string): Promise<Task>;
  complete(taskId: string): Promise<Task>;
  requestReview(taskId: string): Promise<Task>;
  approve(taskId: string): Promise<Task>;
  requestChanges(taskId: string, note: string): Promise<Task>;
  send(
    to: string,
    body: string,
    options?: { kind?: 'message' | 'announcement' | 'task_update'; summary?: string },
  ): Promise<void>;
  broadcast(body: string, options?: { summary?: string }): Promise<void>;
  /** Waits for a shutdown request, then approves it. */
  approveShutdownWhenAsked(options?: { timeoutMs?: number }): Promise<void>;
}

function matches(message: Message, filter: MailFilter): boolean {
  if (filter.from !== undefined && message.from !== filter.from) return false;
  if (filter.kind === undefined) return true;
  const kinds = typeof filter.kind === 'string' ? [filter.kind] : filter.kind;
  return kinds.includes(message.kind);
}

/** Where a scripted agent runs and how its mail reaches it. */
export interface AgentEnvironment {
  /** `TEAMKIT_HOME`, `TEAMKIT_RUN` and `TEAMKIT_MEMBER`, as the host set them. */
  env: Record<string, string | undefined>;
  /** The member's working folder (its worktree, when it has one). */
  cwd: string;
  /** The store holding the member's run (the host's). */
  store: TeamkitStore;
  /** Resolves with the next batch of messages handed to the member, or rejects after `timeoutMs`. */
  nextMessages(timeoutMs: number): Promise<readonly Message[]>;
}

/** The environment of a scripted agent on the test host: mail arrives through deliveries. */
export function testHostEnvironment(
  agent: ScriptedAgentContext,
  store: TeamkitStore,
): AgentEnvironment {
  return {
    env: agent.input.env,
    cwd: agent.input.cwd,
    store,
    nextMessages: async (timeoutMs) => (await agent.nextDelivery({ timeoutMs })).messages,
  };
}

/**
 * The environment of an agent that runs as its own process: it reads its inbox itself,
 * polling every `pollMs`, and acknowledges what it read (what a real agent CLI does
 * with `team inbox --ack`).
 */
export function inboxPollingEnvironment(options: {
  env: Record<string, string | undefined>;
  cwd: string;
  store: TeamkitStore;
  pollMs?: number;
  signal?: AbortSignal;
}): AgentEnvironment {
  const { env, store } = options;
  const client = createMemberClient({
    store,
    home: env.TEAMKIT_HOME ?? '',
    runId: env.TEAMKIT_RUN ?? '',
    member: env.TEAMKIT_MEMBER ?? '',
  });
  return {
    env,
    cwd: options.cwd,
    store,
    async nextMessages(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const unread = await client.inbox();
        if (unread.length > 0) {
          await client.acknowledge(unread.map((message) => message.messageId));
          return unread;
        }
        if (options.signal?.aborted) throw options.signal.reason;
        if (Date.now() >= deadline)
          throw new Error(`no mail for ${env.TEAMKIT_MEMBER} within ${timeoutMs} ms`);
        await delay(options.pollMs ?? 200);
      }
    },
  };
}

/** Builds the actions of one scripted agent from its environment. */
export function createAgentActions(environment: AgentEnvironment): AgentActions {
  const env = environment.env;
  const home = env.TEAMKIT_HOME;
  const runId = env.TEAMKIT_RUN;
  const name = env.TEAMKIT_MEMBER;
  if (home === undefined || runId === undefined || name === undefined) {
    throw new TeamkitError(
      'INVALID_INPUT',
      'A scripted agent needs TEAMKIT_HOME, TEAMKIT_RUN and TEAMKIT_MEMBER in its spawn environment.',
    );
  }
  const client = createMemberClient({ home, runId, member: name, store: environment.store });
  const received: Message[] = [];
  const seen = new Set<string>();
  const unconsumed: Message[] = [];
  const cwd = environment.cwd;

  const take = (filter: MailFilter): Message | undefined => {
    const index = unconsumed.findIndex((message) => matches(message, filter));
    return index === -1 ? undefined : unconsumed.splice(index, 1)[0];
  };

  const actions: AgentActions = {
    name,
    cwd,
    client,
    received,
    async waitForMail(filter = {}, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 15_000);
      for (;;) {
        const found = take(filter);
        if (found !== undefined) return found;
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          throw new Error(
            `${name} waited for mail ${JSON.stringify(filter)} in vain; got ${received.length} messages.`,
          );
        }
        for (const message of await environment.nextMessages(remaining)) {
          if (seen.has(message.messageId)) continue;
          seen.add(message.messageId);
          received.push(message);
          unconsumed.push(message);
        }
      }
    },
    async claimNextReadyTask(match = () => true) {
      for (const task of await client.readyTasks()) {
        if (!match(task)) continue;
        try {
          return await client.claimTask(task.id);
        } catch (error) {
          if (isTeamkitError(error, 'ALREADY_CLAIMED') || isTeamkitError(error, 'BLOCKED_BY'))
            continue;
          throw error;
        }
      }
      return undefined;
    },
    async commitFile(relativePath, content, message) {
      const target = containedPath(cwd, ...relativePath.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
      const git = (args: string[]) =>
        run(
          'git',
          ['-c', `user.name=${name}`, '-c', `user.email=${name}@teamkit.invalid`, ...args],
          { cwd },
        );
      await git(['add', '--', relativePath]);
      await git(['commit', '-q', '-m', message ?? `${name}: update ${relativePath}`]);
      return (await git(['rev-parse', 'HEAD'])).stdout.trim();
    },
    start: (id) => client.startTask(id),
    complete: (id) => client.completeTask(id),
    requestReview: (id) => client.submitForReview(id),
    approve: (id) => client.approveTask(id),
    requestChanges: (id, note) => client.requestChanges(id, note),
    async send(to, body, options = {}) {
      await client.send({ to, body, ...options });
    },
    async broadcast(body, options = {}) {
      await client.send({ to: '*', body, kind: 'announcement', ...options });
    },
    async approveShutdownWhenAsked(options = {}) {
      await actions.waitForMail({ kind: 'shutdown_request' }, options);
      await client.approveShutdown();
    },
  };
  return actions;
}

/**
 * Wraps a function of {@link AgentActions} as an {@link AgentScript} for the test host.
 * The agent reaches its run through the home folder (the file store of its
 * `TEAMKIT_HOME`), as the runtime's file store does.
 */
export function defineAgent(
  play: (actions: AgentActions, agent: ScriptedAgentContext) => Promise<void>,
): AgentScript {
  return (agent) =>
    play(
      createAgentActions(
        testHostEnvironment(agent, createFileStore({ root: agent.input.env.TEAMKIT_HOME ?? '' })),
      ),
      agent,
    );
}
