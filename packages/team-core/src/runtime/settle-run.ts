import { createMailbox } from '../mailbox/index.js';
import { TEAMKIT_SENDER, USER_PARTICIPANT } from '../schema/index.js';
import {
  type CompleteRunResult,
  completeRun,
  findLead,
  isActiveMember,
  type StateOptions,
} from '../state/index.js';
import type { LockOptions, TeamkitStore } from '../storage/index.js';

/** What {@link settleRun} needs. */
export interface SettleRunOptions {
  home: string;
  runId: string;
  /** Whether the lead's process has ended (the host knows; the state cannot say). */
  leadEnded: boolean;
  /** Where the run's state lives (required: the front door chose it). */
  store: TeamkitStore;
  now?: () => number;
  lock?: LockOptions;
  /** Recorded in the event log; default `teamkit`. */
  actor?: string;
}

/**
 * The completion rule for hosts that watch their members (the `team` CLI's supervisor):
 * when every member other than the lead is done and the lead's process ended, the run
 * becomes `completed` (see `completeRun`). While acceptance criteria lack evidence the
 * run stays working with a status reason naming them, and the lead (while it still
 * works) and the user each get one message from `teamkit` saying so, once per set of
 * unmet criteria. A message that cannot be sent does not stop the rule.
 */
export async function settleRun(options: SettleRunOptions): Promise<CompleteRunResult> {
  const { home, runId } = options;
  const stateOptions: StateOptions = {
    store: options.store,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.lock === undefined ? {} : { lock: options.lock }),
    actor: options.actor ?? TEAMKIT_SENDER,
  };
  const result = await completeRun(home, runId, { leadEnded: options.leadEnded }, stateOptions);
  if (result.outcome !== 'unmet' || !result.changed) return result;
  const mailbox = createMailbox({
    home,
    runId,
    store: options.store,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.lock === undefined ? {} : { lock: options.lock }),
  });
  const lead = findLead(result.state);
  const recipients = [
    ...(lead !== undefined && isActiveMember(lead) && !options.leadEnded ? [lead.name] : []),
    USER_PARTICIPANT,
  ];
  const criteria = result.unmet.map((criterion) => `- ${criterion.id}: ${criterion.text}`);
  for (const to of recipients) {
    try {
      await mailbox.sendMessage({
        from: TEAMKIT_SENDER,
        to,
        kind: 'announcement',
        summary: `run cannot complete: ${result.unmet.length} criteria unmet`,
        body: [
          `The members are done, but run ${runId} cannot complete: these acceptance criteria have no evidence yet:`,
          ...criteria,
          to === USER_PARTICIPANT
            ? 'Attach evidence with `team run criteria evidence <run> <criterion> --task|--commit|--message <ref>`, or waive one with `team run criteria waive <run> <criterion> --reason "..."`.'
            : 'Attach evidence to each (a task, a commit or a message that shows it met), or get the missing work done first; only the user can waive a criterion.',
        ].join('\n'),
      });
    } catch {
      // The status reason still says it; the run does not end either way.
    }
  }
  return result;
}
