import { randomUUID } from 'node:crypto';

/** Size of the message text every send figure writes, in bytes (ASCII). */
export const MESSAGE_BODY_BYTES = 500;

const FILLER =
  'Please review the parser change on the member branch and reply with findings before merging. ';

/** A ~500-byte message text, distinct per sender and index so nothing dedupes it. */
export function messageText(sender: string, index: number): string {
  const head = `[${sender} #${index}] `;
  return (head + FILLER.repeat(Math.ceil(MESSAGE_BODY_BYTES / FILLER.length))).slice(
    0,
    MESSAGE_BODY_BYTES,
  );
}

/** A Teamkit-like message envelope around the ~500-byte text, serialised as JSON. */
export function messageDocument(sender: string, recipient: string, index: number): string {
  return JSON.stringify({
    version: 1,
    id: randomUUID(),
    from: sender,
    to: recipient,
    kind: 'message',
    text: messageText(sender, index),
    createdAt: new Date().toISOString(),
  });
}
