import type { ActionName, MemberView, TaskView } from '../protocol.js';
import { taskActions } from './board-columns.js';
import { DialogFrame } from './dialog-frame.js';
import { when } from './format.js';
import { useRunActions } from './ui-context.js';

/** One task's facts, notes and the moves its status allows and the run's source offers. */
export function TaskDialog(props: { task: TaskView; members: MemberView[]; onClose: () => void }) {
  const actions = useRunActions();
  const { task } = props;
  const possible = taskActions(task);
  // A move the status allows and the run's source offers at all; the others have no button.
  const can = Object.fromEntries(
    Object.entries(possible).map(([action, allowed]) => [
      action,
      allowed && actions.offered(action as ActionName),
    ]),
  ) as typeof possible;
  const run = async (action: 'approve' | 'unblock', done: string) => {
    if (await actions.act(action, { taskId: task.id }, done)) props.onClose();
  };
  return (
    <DialogFrame title={`Task #${task.id}`} onClose={props.onClose} wide>
      <div class="task-detail">
        <h3>{task.subject}</h3>
        <dl class="facts">
          <dt>Status</dt>
          <dd data-field="status">{task.status}</dd>
          <dt>Owner</dt>
          <dd>{task.owner ?? '—'}</dd>
          <dt>Role</dt>
          <dd>{task.role ?? '—'}</dd>
          <dt>After</dt>
          <dd>{task.blockedBy.length ? task.blockedBy.map((id) => `#${id}`).join(' ') : '—'}</dd>
          <dt>Before</dt>
          <dd>{task.blocks.length ? task.blocks.map((id) => `#${id}`).join(' ') : '—'}</dd>
          <dt>Created</dt>
          <dd>{task.createdAt === undefined ? '—' : when(task.createdAt)}</dd>
        </dl>
        {task.description ? <p class="description">{task.description}</p> : null}
        {task.reviewNote ? (
          <p class="note">
            <strong>Review note:</strong> {task.reviewNote}
          </p>
        ) : null}
        {task.blockedReason ? (
          <p class="note">
            <strong>Blocked:</strong> {task.blockedReason}
          </p>
        ) : null}
        {task.cancelledReason ? (
          <p class="note">
            <strong>Cancelled:</strong> {task.cancelledReason}
          </p>
        ) : null}
      </div>
      <div class="form-buttons wrap">
        {can.approve ? (
          <button
            type="button"
            class="primary"
            disabled={!actions.allowed('approve')}
            onClick={() => run('approve', `Approved task ${task.id}.`)}
          >
            Approve{task.status === 'completed' ? ' directly' : ''} (a)
          </button>
        ) : null}
        {can.requestChanges ? (
          <button
            type="button"
            disabled={!actions.allowed('requestChanges')}
            onClick={() => actions.open({ kind: 'requestChanges', taskId: task.id })}
          >
            Request changes (c)
          </button>
        ) : null}
        {can.block ? (
          <button
            type="button"
            disabled={!actions.allowed('block')}
            onClick={() => actions.open({ kind: 'reason', action: 'block', taskId: task.id })}
          >
            Block (b)
          </button>
        ) : null}
        {can.unblock ? (
          <button
            type="button"
            disabled={!actions.allowed('unblock')}
            onClick={() => run('unblock', `Unblocked task ${task.id}.`)}
          >
            Unblock (u)
          </button>
        ) : null}
        {can.reassign ? (
          <button
            type="button"
            disabled={!actions.allowed('reassign')}
            onClick={() => actions.open({ kind: 'reassign', taskId: task.id })}
          >
            Reassign
          </button>
        ) : null}
        {can.cancel ? (
          <button
            type="button"
            class="danger"
            disabled={!actions.allowed('cancel')}
            onClick={() => actions.open({ kind: 'reason', action: 'cancel', taskId: task.id })}
          >
            Cancel task
          </button>
        ) : null}
      </div>
    </DialogFrame>
  );
}
