import { errorMessage } from '@teamkit/team-core/errors';
import type { PluginContext } from './plugin-context.js';

/** The part of an OpenCode bus event the handler reads. */
export interface HostEvent {
  type: string;
  properties?: Record<string, unknown>;
}

function sessionIdOf(event: HostEvent): string | undefined {
  const id = event.properties?.sessionID;
  if (typeof id === 'string') return id;
  const info = event.properties?.info as { id?: unknown } | undefined;
  return typeof info?.id === 'string' ? info.id : undefined;
}

function isIdle(event: HostEvent): boolean {
  if (event.type === 'session.idle') return true;
  const status = event.properties?.status as { type?: unknown } | undefined;
  return event.type === 'session.status' && status?.type === 'idle';
}

/**
 * Creates the `event` hook. An idle member or lead gets its unread mail delivered (and
 * waiting members are started); a deleted member session is noticed through the run's
 * resume, which marks it errored and releases its tasks. Work runs in the background so
 * the host's event loop never waits for a delivery, and every failure is logged.
 */
export function createEventHandler(ctx: PluginContext) {
  async function onIdle(sessionId: string): Promise<void> {
    // A member this host started may not be recorded yet; the runtime remembers it then.
    if (!ctx.host.owns(sessionId) && (await ctx.resolveCaller(sessionId)) === undefined) return;
    await (await ctx.runtime()).onMemberIdle(sessionId);
  }

  async function onDeleted(sessionId: string): Promise<void> {
    const caller = await ctx.resolveCaller(sessionId);
    if (caller === undefined) return;
    const report = await (await ctx.runtime()).resumeRun(caller.runId);
    ctx.log('warn', `session of ${caller.member} was deleted; run ${caller.runId} resumed`, {
      report: report as unknown as Record<string, unknown>,
    });
  }

  const background = (work: Promise<void>, what: string) => {
    void work.catch((error: unknown) => ctx.log('warn', `${what} failed: ${errorMessage(error)}`));
  };

  return async ({ event }: { event: HostEvent }): Promise<void> => {
    const sessionId = sessionIdOf(event);
    if (sessionId === undefined) return;
    if (isIdle(event)) background(onIdle(sessionId), `handling idle session ${sessionId}`);
    else if (event.type === 'session.deleted') {
      background(onDeleted(sessionId), `handling deleted session ${sessionId}`);
    } else if (event.type === 'session.error' && ctx.host.owns(sessionId)) {
      ctx.log('warn', `member session ${sessionId} reported an error`, {
        error: event.properties?.error,
      });
    }
  };
}
