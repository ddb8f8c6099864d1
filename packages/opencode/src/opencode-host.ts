import { setTimeout as delay } from 'node:timers/promises';
import {
  type DeliverInput,
  type DeliveryOutcome,
  type InterruptOutcome,
  type SpawnMemberInput,
  TEAM_HOST_SPECIFICATION_VERSION,
  type TeamHostV1,
  TeamkitError,
} from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';
import { agentNameOf } from './config-hook.js';
import {
  describeClientError,
  type ModelRef,
  type OpenCodeClient,
  type PluginLog,
  type SessionHistoryEntry,
} from './opencode-client.js';

/** Options of {@link createOpenCodeHost}. */
export interface OpenCodeHostOptions {
  client: OpenCodeClient;
  /** The server URL the plugin was given; read lazily (OpenCode exposes it as a getter). */
  serverUrl?: () => URL | string | undefined;
  log?: PluginLog;
  /** How long `deliver` waits for the session history to show a delivery (default 15 s). */
  confirmTimeoutMs?: number;
  /** Pause between history reads while confirming (default 200 ms). */
  confirmIntervalMs?: number;
  fetch?: typeof fetch;
}

/** The OpenCode host: {@link TeamHostV1} plus what the plugin needs to route events. */
export interface OpenCodeHost extends TeamHostV1 {
  /** True for sessions this host started (members), also before the runtime recorded them. */
  owns(sessionId: string): boolean;
  /**
   * Checks that the server URL can serve `opencode attach`: a real server answers on it.
   * Until it succeeds, `attachCommand` returns `undefined`.
   */
  checkAttach(): Promise<{ usable: true; url: string } | { usable: false; reason: string }>;
}

interface SessionInfo {
  agent?: string;
  model?: ModelRef;
}

const BUSY = new Set(['busy', 'retry']);

function modelOf(model: string | undefined): ModelRef | undefined {
  if (model === undefined) return undefined;
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) return undefined;
  return { providerID: model.slice(0, slash), modelID: model.slice(slash + 1) };
}

function textOf(entry: SessionHistoryEntry): string {
  return entry.parts
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

function hostFailed(message: string, cause?: unknown): TeamkitError {
  return new TeamkitError('HOST_FAILED', message, cause === undefined ? {} : { cause });
}

/**
 * Creates the OpenCode implementation of {@link TeamHostV1}. Members are child sessions
 * of the lead's session, started with `promptAsync` under their `<team>-<member>` agent;
 * delivery prompts an idle session and answers `delivered` only once the session's
 * history shows every message id, so the runtime acknowledges only what arrived.
 */
export function createOpenCodeHost(options: OpenCodeHostOptions): OpenCodeHost {
  const { client } = options;
  const log: PluginLog = options.log ?? (() => {});
  const confirmTimeoutMs = options.confirmTimeoutMs ?? 15_000;
  const confirmIntervalMs = options.confirmIntervalMs ?? 200;
  const sessions = new Map<string, SessionInfo>();
  const stopped = new Set<string>();
  let attachUrl: string | undefined;

  async function history(sessionId: string): Promise<SessionHistoryEntry[]> {
    const result = await client.session.messages({ path: { id: sessionId } });
    if (result.error !== undefined || result.data === undefined) {
      throw hostFailed(
        `Could not read session ${sessionId}: ${describeClientError(result.error)}`,
        result.error,
      );
    }
    return result.data;
  }

  async function lastUserInfo(sessionId: string): Promise<SessionInfo> {
    const entries = await history(sessionId).catch(() => []);
    const last = entries.findLast((entry) => entry.info.role === 'user');
    return {
      ...(last?.info.agent === undefined ? {} : { agent: last.info.agent }),
      ...(last?.info.model === undefined ? {} : { model: last.info.model }),
    };
  }

  async function exists(sessionId: string): Promise<boolean> {
    if (stopped.has(sessionId)) return false;
    try {
      const result = await client.session.get({ path: { id: sessionId } });
      return result.error === undefined && result.data?.id === sessionId;
    } catch {
      return false;
    }
  }

  async function isBusy(sessionId: string): Promise<boolean> {
    const result = await client.session.status({});
    if (result.error !== undefined) {
      throw hostFailed(`Could not read session status: ${describeClientError(result.error)}`);
    }
    const status = result.data?.[sessionId]?.type;
    return status !== undefined && BUSY.has(status);
  }

  async function knownAgent(name: string): Promise<boolean> {
    try {
      const result = await client.app.agents({});
      return (result.data ?? []).some((agent) => agent.name === name);
    } catch {
      return false;
    }
  }

  async function prompt(sessionId: string, info: SessionInfo, text: string): Promise<void> {
    const result = await client.session.promptAsync({
      path: { id: sessionId },
      body: {
        ...(info.agent === undefined ? {} : { agent: info.agent }),
        ...(info.model === undefined ? {} : { model: info.model }),
        parts: [{ type: 'text', text }],
      },
    });
    if (result.error !== undefined) {
      throw hostFailed(
        `OpenCode refused the prompt for session ${sessionId}: ${describeClientError(result.error)}`,
        result.error,
      );
    }
  }

  async function historyShows(sessionId: string, ids: readonly string[]): Promise<boolean> {
    const deadline = Date.now() + confirmTimeoutMs;
    for (;;) {
      const seen = (await history(sessionId))
        .filter((entry) => entry.info.role === 'user')
        .map(textOf)
        .join('\n');
      if (ids.every((id) => seen.includes(id))) return true;
      if (Date.now() >= deadline) return false;
      await delay(confirmIntervalMs);
    }
  }

  const host: OpenCodeHost = {
    specificationVersion: TEAM_HOST_SPECIFICATION_VERSION,
    hostId: 'opencode',

    async spawnMember(input: SpawnMemberInput) {
      const lead = input.leadSessionId === undefined ? {} : await lastUserInfo(input.leadSessionId);
      const agentName = agentNameOf(input.teamName, input.member.name);
      const agent = (await knownAgent(agentName)) ? agentName : undefined;
      if (agent === undefined) {
        log('warn', `no OpenCode agent "${agentName}"; the member runs with the default agent`, {
          runId: input.runId,
        });
      }
      const model = modelOf(input.member.model) ?? lead.model;
      const created = await client.session.create({
        body: {
          ...(input.leadSessionId === undefined ? {} : { parentID: input.leadSessionId }),
          title: `${input.teamName} · ${input.member.name}`,
        },
      });
      const sessionId = created.data?.id;
      if (created.error !== undefined || sessionId === undefined) {
        throw hostFailed(
          `OpenCode could not create a session for ${input.member.name}: ${describeClientError(created.error)}`,
          created.error,
        );
      }
      const info: SessionInfo = {
        ...(agent === undefined ? {} : { agent }),
        ...(model === undefined ? {} : { model }),
      };
      sessions.set(sessionId, info);
      await prompt(sessionId, info, input.member.prompt);
      return { sessionId };
    },

    async deliver(input: DeliverInput): Promise<DeliveryOutcome> {
      if (stopped.has(input.sessionId) || !(await exists(input.sessionId))) {
        throw hostFailed(`Session ${input.sessionId} of ${input.member} no longer exists.`);
      }
      if (await isBusy(input.sessionId)) return 'deferred';
      const info = sessions.get(input.sessionId) ?? (await lastUserInfo(input.sessionId));
      await prompt(input.sessionId, info, input.text);
      const ids = input.messages.map((message) => message.messageId);
      if (await historyShows(input.sessionId, ids)) return 'delivered';
      // Released, so the runtime delivers again later; readers dedupe by message id.
      log(
        'warn',
        `session ${input.sessionId} did not show the delivery in time; it will be retried`,
        {
          member: input.member,
          messages: ids,
        },
      );
      return 'deferred';
    },

    isAlive: exists,

    async interrupt(sessionId: string): Promise<InterruptOutcome> {
      if (!(await exists(sessionId))) return 'unknown';
      if (!(await isBusy(sessionId))) return 'idle';
      const result = await client.session.abort({ path: { id: sessionId } });
      if (result.error !== undefined) {
        throw hostFailed(
          `Could not interrupt session ${sessionId}: ${describeClientError(result.error)}`,
        );
      }
      return 'interrupted';
    },

    async stopMember(sessionId: string) {
      // The session stays in OpenCode as a readable transcript; Teamkit never prompts it again.
      if (await exists(sessionId)) {
        const result = await client.session.abort({ path: { id: sessionId } });
        if (result.error !== undefined) {
          throw hostFailed(
            `Could not stop session ${sessionId}: ${describeClientError(result.error)}`,
          );
        }
      }
      stopped.add(sessionId);
    },

    attachCommand(sessionId: string) {
      if (attachUrl === undefined || stopped.has(sessionId)) return undefined;
      return ['opencode', 'attach', attachUrl, '--session', sessionId];
    },

    owns: (sessionId) => sessions.has(sessionId),

    async checkAttach() {
      let raw: URL | string | undefined;
      try {
        raw = options.serverUrl?.();
      } catch (error) {
        return { usable: false, reason: `the server URL is unavailable: ${String(error)}` };
      }
      if (raw === undefined) return { usable: false, reason: 'OpenCode gave no server URL' };
      let url: URL;
      try {
        url = new URL(String(raw));
      } catch {
        return { usable: false, reason: `the server URL ${String(raw)} is not a URL` };
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        return { usable: false, reason: `the server URL ${url.href} is not http(s)` };
      }
      const doFetch = options.fetch ?? fetch;
      try {
        const response = await doFetch(new URL('/path', url), {
          signal: AbortSignal.timeout(2_000),
        });
        // 401: a password-protected server; `opencode attach` reads OPENCODE_SERVER_PASSWORD.
        if (!response.ok && response.status !== 401) {
          return {
            usable: false,
            reason: `no OpenCode server answers on ${url.href} (HTTP ${response.status})`,
          };
        }
      } catch (error) {
        return {
          usable: false,
          reason: `nothing listens on ${url.href} (${errorMessage(error)}); in \`opencode run\` the URL is a placeholder`,
        };
      }
      attachUrl = url.href.replace(/\/$/, '');
      return { usable: true, url: attachUrl };
    },
  };
  return host;
}
