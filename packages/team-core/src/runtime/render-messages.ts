import type { Message } from '../schema/index.js';

const TAG = 'team_message';

function escapeAttribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** Neutralises envelope tags inside a body so a message cannot forge another sender's envelope. */
function neutraliseEnvelopeTags(body: string): string {
  return body.replace(new RegExp(`<(/?)(${TAG})`, 'gi'), '<$1\u200b$2');
}

/**
 * Renders messages as `<team_message …>` envelopes, oldest first, the form members
 * read them in. Attribute values are escaped; a body cannot close or open an envelope.
 */
export function renderMessages(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      const attributes: [string, string | undefined][] = [
        ['id', message.messageId],
        ['from', message.from],
        ['kind', message.kind],
        ['at', new Date(message.timestamp).toISOString()],
        ['summary', message.summary],
        ['correlation', message.correlationId],
        ['broadcast', message.broadcast ? 'true' : undefined],
        ['references', message.references?.length ? JSON.stringify(message.references) : undefined],
      ];
      const rendered = attributes
        .filter((pair): pair is [string, string] => pair[1] !== undefined)
        .map(([key, value]) => `${key}="${escapeAttribute(value)}"`)
        .join(' ');
      return `<${TAG} ${rendered}>\n${neutraliseEnvelopeTags(message.body)}\n</${TAG}>`;
    })
    .join('\n');
}
