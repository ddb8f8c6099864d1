import type { ToolContext } from '@opencode-ai/plugin';
import { isTeamkitError, type Message, renderMessages, type Task } from '@teamkit/team-core';
import type { Caller, PluginContext } from '../plugin-context.js';

/** What a tool body answers: a few lines for the model, and structure for the UI. */
export interface ToolAnswer {
  output: string;
  title?: string;
  metadata?: Record<string, unknown>;
}

/** A refusal the model can read, with a stable code like the core's errors. */
export class ToolRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

/**
 * Runs a tool body and turns its answer or its error into text. Teamkit errors and
 * refusals become `error CODE: message` so the model can read and correct them; other
 * errors are rethrown, as they are bugs or host failures the user should see.
 */
export async function answer(
  context: ToolContext,
  body: () => Promise<ToolAnswer>,
): Promise<string> {
  let result: ToolAnswer;
  try {
    result = await body();
  } catch (error) {
    if (error instanceof ToolRefusal || isTeamkitError(error)) {
      const code = (error as { code: string }).code;
      context.metadata({ title: `error ${code}`, metadata: { error: code } });
      return `error ${code}: ${error.message}`;
    }
    throw error;
  }
  context.metadata({
    ...(result.title === undefined ? {} : { title: result.title }),
    ...(result.metadata === undefined ? {} : { metadata: result.metadata }),
  });
  return result.output;
}

/** The working run and member of the calling session, or a readable refusal. */
export async function requireCaller(ctx: PluginContext, sessionId: string): Promise<Caller> {
  const caller = await ctx.resolveCaller(sessionId);
  if (caller === undefined) {
    throw new ToolRefusal(
      'RUN_NOT_FOUND',
      'This session is not part of a running team. Start one with team_create.',
    );
  }
  return caller;
}

/** Refuses callers other than the run's lead. */
export function refuseUnlessLead(caller: Caller, operation: string): void {
  if (!caller.isLead) {
    const lead = caller.lead === undefined ? '' : ` (${caller.lead})`;
    throw new ToolRefusal('NOT_LEAD', `Only the lead${lead} may ${operation}.`);
  }
}

/** One task as one line: `#3 [pending] subject (owner: x; blocked by 1, 2)`. */
export function taskLine(task: Task): string {
  const details = [
    task.owner === undefined ? undefined : `owner: ${task.owner}`,
    task.blockedBy.length > 0 ? `blocked by ${task.blockedBy.join(', ')}` : undefined,
    task.blocks.length > 0 ? `blocks ${task.blocks.join(', ')}` : undefined,
  ].filter((item): item is string => item !== undefined);
  return `#${task.id} [${task.status}] ${task.subject}${details.length > 0 ? ` (${details.join('; ')})` : ''}`;
}

/** Messages as the envelopes members read. */
export function messagesText(messages: readonly Message[]): string {
  return messages.length === 0 ? 'no unread messages' : renderMessages(messages);
}

/** Starts delivering a member's mail without making the caller wait; failures are logged. */
export function deliverSoon(ctx: PluginContext, runId: string, members: readonly string[]): void {
  void ctx.runtime().then(
    (runtime) =>
      Promise.all(
        members.map((member) =>
          runtime.deliverPending(runId, member).catch((error: unknown) => {
            ctx.log('warn', `delivery to ${member} failed: ${String(error)}`, { runId });
          }),
        ),
      ),
    (error: unknown) => ctx.log('error', `the team runtime could not start: ${String(error)}`),
  );
}
