import type { EventView } from '../protocol.js';
import { when } from './format.js';

function describe(event: EventView): string {
  const data = event.data ?? {};
  if (event.type === 'task.status') return `${String(data.from)} → ${String(data.to)}`;
  if (event.type === 'message.sent' && Array.isArray(data.delivered))
    return `to ${(data.delivered as string[]).join(', ')}`;
  return '';
}

/** The run's event log, newest first. */
export function TimelineView(props: { events: EventView[] }) {
  return (
    <section class="timeline" aria-label="Timeline">
      <ol class="event-list">
        {props.events
          .slice()
          .reverse()
          .map((event) => (
            <li key={event.seq} class="event" data-type={event.type}>
              <time class="muted">{when(event.at)}</time>
              <span class="actor">{event.actor}</span>
              <span class="type">{event.type}</span>
              <span class="ids">{(event.ids ?? []).map((id) => `#${id}`).join(' ')}</span>
              <span class="muted">{describe(event)}</span>
            </li>
          ))}
      </ol>
      {props.events.length === 0 ? <p class="muted">Nothing happened yet.</p> : null}
    </section>
  );
}
