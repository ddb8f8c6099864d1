import { useState } from 'preact/hooks';
import type { MemberView, MessageView } from '../protocol.js';
import { PROTOCOL_KINDS, when } from './format.js';

/** The message stream, newest first, filtered by member and kind; protocol noise folded. */
export function MessagesView(props: { messages: MessageView[]; members: MemberView[] }) {
  const [member, setMember] = useState('');
  const [kind, setKind] = useState('');
  const [showProtocol, setShowProtocol] = useState(false);
  const kinds = [...new Set(props.messages.map((message) => message.kind))].sort();
  const matching = props.messages.filter(
    (message) =>
      (member === '' || message.from === member || message.to.includes(member)) &&
      (kind === '' || message.kind === kind),
  );
  const shown = matching.filter(
    (message) => showProtocol || kind !== '' || !PROTOCOL_KINDS.includes(message.kind),
  );
  const folded = matching.length - shown.length;
  return (
    <section class="messages" aria-label="Messages">
      <div class="filters">
        <label>
          Member
          <select name="member" value={member} onChange={(e) => setMember(e.currentTarget.value)}>
            <option value="">everyone</option>
            {props.members.map((entry) => (
              <option key={entry.name} value={entry.name}>
                {entry.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Kind
          <select name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            <option value="">all kinds</option>
            {kinds.map((entry) => (
              <option key={entry} value={entry}>
                {entry.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        {folded > 0 || showProtocol ? (
          <button type="button" class="ghost" onClick={() => setShowProtocol(!showProtocol)}>
            {showProtocol ? 'Fold protocol messages' : `${folded} protocol messages folded — show`}
          </button>
        ) : null}
      </div>
      <ol class="message-list" reversed>
        {shown
          .slice()
          .reverse()
          .map((message) => (
            <li key={message.id} class={`message kind-${message.kind}`} data-kind={message.kind}>
              <div class="message-head">
                <strong>{message.from}</strong> →{' '}
                {message.broadcast ? 'everyone' : message.to.join(', ')}
                <span class="chip">{message.kind.replace('_', ' ')}</span>
                {message.waiting === undefined ? null : (
                  <span class={message.waiting ? 'chip waiting' : 'chip'} data-field="delivery">
                    {message.waiting ? 'waiting in the inbox' : 'delivered'}
                  </span>
                )}
                <time class="muted">{when(message.at)}</time>
              </div>
              {message.summary ? <div class="summary">{message.summary}</div> : null}
              <pre class="body">{message.body}</pre>
            </li>
          ))}
      </ol>
      {shown.length === 0 ? <p class="muted">No messages.</p> : null}
    </section>
  );
}
