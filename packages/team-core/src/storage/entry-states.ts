import { TeamkitError } from '../errors/index.js';
import type { EntryState } from './teamkit-store.js';

/** The states an entry moves between, in the order a message goes through them. */
export const ENTRY_STATES: readonly EntryState[] = ['unread', 'reserved', 'processed'];

/** Refuses anything but an {@link EntryState} with `INVALID_INPUT` (stores check each argument). */
export function assertEntryState(state: EntryState): void {
  if (!ENTRY_STATES.includes(state)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `${JSON.stringify(state)} is not an entry state; states are ${ENTRY_STATES.join(', ')}.`,
      { details: { state: String(state) } },
    );
  }
}
