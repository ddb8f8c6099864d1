import { type Message, renderMessages } from '@teamkit/team-core';

/** What the first turn of a member (or a turn with no conversation to continue) is made of. */
export interface FirstTurnPromptInput {
  /** The member's prompt with the team protocol, as the runtime wrote it. */
  memberPrompt: string;
  /** The run's goal, shown to the lead. */
  goal?: string;
  messages: readonly Message[];
}

const HOW_TURNS_WORK = [
  '## How your turns work',
  '',
  'You work in turns. When you have done what you can for now, end your turn: Teamkit',
  'starts your next turn, in this same conversation, as soon as new mail arrives for you.',
  'Do not wait for mail inside a turn.',
].join('\n');

/** The prompt of a member's first turn: its prompt, how turns work, the goal, its unread mail. */
export function firstTurnPrompt(input: FirstTurnPromptInput): string {
  const parts = [input.memberPrompt.trim(), HOW_TURNS_WORK];
  if (input.goal !== undefined && input.goal.trim() !== '') {
    parts.push(`## The run's goal\n\n${input.goal.trim()}`);
  }
  if (input.messages.length > 0) {
    parts.push(`## Your unread messages\n\n${renderMessages(input.messages)}`);
  }
  return `${parts.join('\n\n')}\n`;
}

/** The prompt of a later turn: the new messages that started it. */
export function nextTurnPrompt(messages: readonly Message[]): string {
  const count = messages.length === 1 ? '1 new message' : `${messages.length} new messages`;
  return `You have ${count}. Act on them, then end your turn.\n\n${renderMessages(messages)}\n`;
}
