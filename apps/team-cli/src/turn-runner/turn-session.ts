import { MemberNameSchema } from '@teamkit/team-core/schema';
import {
  createFileStore,
  putDocument,
  readDocument,
  runKeys,
  type TeamkitStore,
} from '@teamkit/team-core/storage';
import { z } from 'zod';

/**
 * What a member's turn runner keeps between turns (`runtime/<run>/turns/<member>.json`,
 * written only by that runner): the agent CLI's conversation id, so the next turn — and a
 * runner restarted by resume — continues the same conversation, and how many turns ran.
 */
export const TurnSessionSchema = z.strictObject({
  version: z.literal(1),
  member: MemberNameSchema,
  sessionId: z.string().min(1).max(512).optional(),
  turns: z.number().int().nonnegative(),
  lastExit: z.number().int().optional(),
  updatedAt: z.number().int().nonnegative(),
});

/** A member's turn session record. */
export type TurnSession = z.infer<typeof TurnSessionSchema>;

/** The store key of a member's turn session record. */
export function turnSessionKey(runId: string, member: string): string {
  MemberNameSchema.parse(member);
  return `${runKeys(runId).root}/turns/${member}.json`;
}

/** The member's turn session record, or `undefined` before its first turn. */
export async function readTurnSession(
  home: string,
  runId: string,
  member: string,
  store: TeamkitStore = createFileStore({ root: home }),
): Promise<TurnSession | undefined> {
  return (await readDocument(store, turnSessionKey(runId, member), TurnSessionSchema))?.value;
}

/** Writes the member's turn session record (one writer: the member's runner). */
export async function writeTurnSession(
  home: string,
  runId: string,
  session: TurnSession,
  store: TeamkitStore = createFileStore({ root: home }),
): Promise<void> {
  await putDocument(store, turnSessionKey(runId, session.member), TurnSessionSchema, session);
}
