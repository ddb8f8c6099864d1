import type { MessageSender, SenderOptions } from '../baselines/message-sender.js';
import type { NotAvailable } from '../not-available.js';
import { adapterNotWired, findTeamCoreFunctions } from '../team-core-api.js';

/**
 * Teamkit's durable send, as the send figures measure it: one `sendMessage` per call,
 * ~500-byte text, from `options.sender` to `options.recipient`, with the run's state
 * under `options.folder` (use it as `TEAMKIT_HOME` or the run folder). Used both
 * in-process (1 writer) and inside each writer process (4 writers), so it must work
 * when several processes send to the same recipient at once.
 *
 * Returns {@link NotAvailable} until team-core exports the mailbox and this adapter
 * is wired; the send figures then show "not available".
 */
export async function createOursSender(
  _options: SenderOptions,
): Promise<MessageSender | NotAvailable> {
  const api = await findTeamCoreFunctions(['sendMessage']);
  if ('notAvailable' in api) return api;
  return adapterNotWired('figures/send-ours.ts', ['sendMessage']);
}
