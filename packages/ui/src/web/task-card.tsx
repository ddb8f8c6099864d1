import { memo } from 'preact/compat';
import type { TaskView } from '../protocol.js';
import { cardHeight } from './card-layout.js';
import { age } from './format.js';

const STATUS_LABEL: Record<string, string> = {
  pending: 'pending',
  claimed: 'claimed',
  in_progress: 'in progress',
  completed: 'done',
  in_review: 'in review',
  approved: 'approved',
  blocked: 'blocked',
  cancelled: 'cancelled',
};

/**
 * One card of the board: a focusable article with the task's facts, placed at `top` of
 * its column's track with the height {@link cardHeight} gives it.
 */
export const TaskCard = memo(function TaskCard(props: {
  task: TaskView;
  /** The card the keyboard is on (the only one in the tab order). */
  active: boolean;
  /** Ids of this task's blockers that are not done yet. */
  openBlockers: string;
  /** The clock, rounded to a minute, so ages refresh without re-rendering every second. */
  now: number;
  /** Offset from the top of the column's track, in CSS pixels. */
  top: number;
  /** 1-based place in the column, and the column's length, for assistive technology. */
  position: number;
  count: number;
}) {
  const { task } = props;
  const flags = [
    task.status === 'blocked' ? 'blocked' : '',
    task.status === 'cancelled' ? 'cancelled' : '',
    task.needsFix ? 'needs-fix' : '',
  ].filter(Boolean);
  return (
    <article
      id={`card-${task.id}`}
      class={['card', ...flags].join(' ')}
      data-task-id={task.id}
      data-status={task.status}
      style={{ top: `${props.top}px`, height: `${cardHeight(task)}px` }}
      tabIndex={props.active ? 0 : -1}
      aria-posinset={props.position}
      aria-setsize={props.count}
      aria-label={`Task ${task.id}: ${task.subject}, ${STATUS_LABEL[task.status] ?? task.status}${task.owner ? `, owned by ${task.owner}` : ''}`}
    >
      <div class="card-top">
        <span class="card-id">#{task.id}</span>
        {task.role ? <span class="chip role">{task.role}</span> : null}
        {task.createdAt === undefined ? null : (
          <span class="card-age">{age(props.now - task.createdAt)}</span>
        )}
      </div>
      <div class="card-subject" title={task.subject}>
        {task.subject}
      </div>
      <div class="card-meta">
        {task.owner ? (
          <span class="owner">@{task.owner}</span>
        ) : (
          <span class="owner none">unowned</span>
        )}
        {task.blockedBy.length > 0 ? (
          <span class={props.openBlockers ? 'deps open' : 'deps'}>
            after {task.blockedBy.map((id) => `#${id}`).join(' ')}
          </span>
        ) : null}
      </div>
      {task.status === 'blocked' ? (
        <div class="badge blocked" title={task.blockedReason}>
          blocked: {task.blockedReason ?? ''}
        </div>
      ) : null}
      {task.needsFix ? (
        <div class="badge needs-fix">
          {task.status === 'in_review' || task.status === 'completed'
            ? 'redone after changes'
            : 'changes requested'}
        </div>
      ) : null}
      {task.status === 'cancelled' ? <div class="badge cancelled">cancelled</div> : null}
    </article>
  );
});
