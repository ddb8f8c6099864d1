import type { z } from 'zod';
import type { MemberClient } from '../runtime/member-client.js';
import type { TeamProtocolOperation } from '../runtime/team-protocol.js';
import type { TeamRunControl } from './team-run-control.js';
import type { TeamRunView } from './team-run-view.js';

/**
 * Who may call a tool: a `member` of a run (every member, the lead included), the run's
 * `lead`, the `user` (the person, who has the lead's rights), or an `observer` (a caller
 * with no identity at all, offered read-only tools).
 */
export type TeamToolRole = 'member' | 'lead' | 'user' | 'observer';

/**
 * Who is calling, as the adapter established it from what its host set up (a session, a
 * process environment), never from a name the agent typed.
 */
export type TeamToolCaller =
  | {
      kind: 'member';
      runId: string;
      member: string;
      isLead: boolean;
      /** The run's lead, named in refusals. */
      lead?: string;
      /** The run's team, named in refusals. */
      teamName?: string;
    }
  | { kind: 'user'; runId?: string }
  | { kind: 'observer'; runId?: string };

/** How a tool names another tool in the words it shows a model (the adapter's names). */
export type TeamToolNamer = (tool: string) => string;

/** What a tool handler acts through: the caller, its client, a read-only view, and optional run control. */
export interface TeamToolContext {
  readonly caller: TeamToolCaller;
  /**
   * The client the caller acts through: its own member client, or the lead's for the user.
   * Rejects with a readable `TeamkitError` when the caller is in no run.
   */
  client(): Promise<MemberClient>;
  /** A read-only view of the caller's run; rejects like {@link client} when there is none. */
  view(): Promise<TeamRunView>;
  /** Starting, listing and ending runs, when the adapter can (it needs a host that spawns members). */
  readonly runs?: TeamRunControl;
  /** Told which members just got mail, so a host that pushes mail can deliver it now. */
  mailSent?(runId: string, members: readonly string[]): void;
  /** The adapter's name for a tool, used in texts that point the model at another tool. */
  readonly toolName: TeamToolNamer;
  /** Aborted when the host cancels the call (waits stop early). */
  readonly signal?: AbortSignal;
  /**
   * Records that the caller is waiting for mail (its presence, the core's waiting marker)
   * until the returned function clears it. Adapters whose members are processes supply it,
   * so a host's supervisor sees a member blocked in `wait_for_mail` as idle.
   */
  markWaiting?(): Promise<() => Promise<void>>;
}

/** One operation of the team protocol and how a member does it with this tool. */
export type TeamToolProtocolWords = Partial<
  Record<TeamProtocolOperation, (name: TeamToolNamer) => string>
>;

/**
 * One team tool, defined once: its name, description, input and output schemas, who may
 * call it, and a handler over the member client. The OpenCode plugin and the MCP server
 * project these definitions; they never define a team tool of their own.
 */
export interface TeamTool<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject = z.ZodObject,
> {
  /** The base name (`send_message`); adapters prefix it as their host needs (`team_send_message`). */
  readonly name: string;
  /** A short human title. */
  readonly title: string;
  /** What the tool does, as the model reads it; `{tool}` marks are other tools' base names. */
  readonly description: string;
  readonly input: Input;
  readonly output: Output;
  /** Who may call it; a caller with none of these roles is refused before anything runs. */
  readonly roles: readonly TeamToolRole[];
  /** True when it writes nothing (offered to observers when `observer` is among its roles). */
  readonly readOnly: boolean;
  /** Needs the adapter's run control ({@link TeamToolContext.runs}); offered only where there is one. */
  readonly needsRunControl?: boolean;
  /** What a refused caller was trying to do, for the refusal: `end the team`. */
  operation(input: z.infer<Input>): string;
  /** A refusal worded for this tool, for a caller without its roles; the generic one otherwise. */
  refusal?(caller: TeamToolCaller, name: TeamToolNamer): Error | undefined;
  /** Carries out the call. Throws a `TeamkitError` to refuse; writes nothing when it does. */
  handler(input: z.infer<Input>, context: TeamToolContext): Promise<z.infer<Output>>;
  /** The same result as a few lines of text, for hosts that show the model text only. */
  text(output: z.infer<Output>, name: TeamToolNamer): string;
  /** The team-protocol operations this tool performs, in the prompt's words. */
  readonly protocol?: TeamToolProtocolWords;
}

/** Any team tool, whatever its schemas. */
// biome-ignore lint/suspicious/noExplicitAny: a list of tools holds tools of different schemas.
export type AnyTeamTool = TeamTool<any, any>;

/** Defines a team tool with its schema types inferred; returns it unchanged. */
export function defineTeamTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  tool: TeamTool<Input, Output>,
): TeamTool<Input, Output> {
  return tool;
}
