import { z } from 'zod';
import { MessageSchema } from './message.js';

/**
 * `runtime/<run>/presence/<member>.json`: a member process blocked waiting for mail says
 * so, so a supervisor counts it idle for the parallel bound; with `handoff` (a
 * `team inbox --wait`), its host may hand mail over directly (see {@link HandoffSchema}).
 * Written and removed by the waiting process only; trusted only while that process runs.
 */
export const MemberPresenceSchema = z.object({
  version: z.literal(1),
  pid: z.number().int(),
  since: z.number(),
  handoff: z.boolean(),
});
/** A member's presence document. */
export type MemberPresence = z.infer<typeof MemberPresenceSchema>;

/**
 * One entry of `runtime/<run>/handoff/<member>/`: mail a host handed to a waiting member,
 * with the text it would have delivered.
 */
export const HandoffSchema = z.object({
  version: z.literal(1),
  messages: z.array(MessageSchema),
  text: z.string(),
});
/** One handoff. */
export type Handoff = z.infer<typeof HandoffSchema>;
