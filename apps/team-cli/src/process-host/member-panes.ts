import { z } from 'zod';

/**
 * `runtime/<run>/member-panes.json`: where a run's members were given tmux panes, written
 * by the process host in tmux mode so whoever supervises the run later (another process)
 * reaches the same tmux server.
 */
export const MemberPanesSchema = z.object({
  version: z.literal(1),
  socket: z.string().nullable(),
  callerPaneId: z.string().nullable(),
});

/** The member-panes document. */
export type MemberPanes = z.infer<typeof MemberPanesSchema>;

/** The key of a run's member-panes document, under the run's folder key. */
export const memberPanesKey = (runRoot: string) => `${runRoot}/member-panes.json`;
