import { useState } from 'preact/hooks';
import type { MemberView, TaskView } from '../protocol.js';
import { taskActions } from './board-columns.js';
import { DialogFrame } from './dialog-frame.js';
import { when } from './format.js';
import { type DialogRequest, useRunActions } from './ui-context.js';

type Close = () => void;

function Form(props: {
  onSubmit: () => Promise<boolean>;
  onClose: Close;
  submit: string;
  danger?: boolean;
  children: preact.ComponentChildren;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="form"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        const ok = await props.onSubmit();
        setBusy(false);
        if (ok) props.onClose();
      }}
      onKeyDown={(event) => {
        // Ctrl+Enter submits from a text area, as in most editors.
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          (event.currentTarget as HTMLFormElement).requestSubmit();
        }
      }}
    >
      {props.children}
      <div class="form-buttons">
        <button type="button" class="ghost" onClick={props.onClose}>
          Cancel
        </button>
        <button type="submit" class={props.danger ? 'danger' : 'primary'} disabled={busy}>
          {props.submit}
        </button>
      </div>
    </form>
  );
}

function TaskDialog(props: { task: TaskView; members: MemberView[]; onClose: Close }) {
  const actions = useRunActions();
  const { task } = props;
  const can = taskActions(task);
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

function CreateTaskDialog(props: { onClose: Close }) {
  const actions = useRunActions();
  const [subject, setSubject] = useState('');
  const [description, setDescription] = useState('');
  const [blockedBy, setBlockedBy] = useState('');
  const [role, setRole] = useState('');
  return (
    <DialogFrame title="New task" onClose={props.onClose}>
      <Form
        submit="Create task"
        onClose={props.onClose}
        onSubmit={() =>
          actions.act('createTask', { subject, description, blockedBy, role }, 'Task created.')
        }
      >
        <label>
          Subject
          <input
            name="subject"
            value={subject}
            onInput={(e) => setSubject(e.currentTarget.value)}
            data-autofocus
          />
        </label>
        <label>
          Description
          <textarea
            name="description"
            rows={4}
            value={description}
            onInput={(e) => setDescription(e.currentTarget.value)}
          />
        </label>
        <label>
          After tasks (ids, comma-separated)
          <input
            name="blockedBy"
            value={blockedBy}
            placeholder="e.g. 1, 3"
            onInput={(e) => setBlockedBy(e.currentTarget.value)}
          />
        </label>
        <label>
          Role
          <input name="role" value={role} onInput={(e) => setRole(e.currentTarget.value)} />
        </label>
      </Form>
    </DialogFrame>
  );
}

function SendDialog(props: { members: MemberView[]; to?: string; onClose: Close }) {
  const actions = useRunActions();
  const [to, setTo] = useState(props.to ?? '*');
  const [kind, setKind] = useState('message');
  const [body, setBody] = useState('');
  return (
    <DialogFrame title="Send a message" onClose={props.onClose}>
      <Form
        submit="Send"
        onClose={props.onClose}
        onSubmit={() => actions.act('send', { to, kind, body }, 'Message sent.')}
      >
        <label>
          To
          <select name="to" value={to} onChange={(e) => setTo(e.currentTarget.value)}>
            <option value="*">everyone (broadcast)</option>
            {props.members.map((member) => (
              <option key={member.name} value={member.name}>
                {member.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Kind
          <select name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            <option value="message">message</option>
            <option value="announcement">announcement</option>
            <option value="task_update">task update</option>
          </select>
        </label>
        <label>
          Message
          <textarea
            name="body"
            rows={5}
            value={body}
            onInput={(e) => setBody(e.currentTarget.value)}
            data-autofocus
          />
        </label>
      </Form>
    </DialogFrame>
  );
}

function TextDialog(props: {
  title: string;
  label: string;
  submit: string;
  danger?: boolean;
  onSubmit: (text: string) => Promise<boolean>;
  onClose: Close;
}) {
  const [text, setText] = useState('');
  return (
    <DialogFrame title={props.title} onClose={props.onClose}>
      <Form
        submit={props.submit}
        onClose={props.onClose}
        onSubmit={() => props.onSubmit(text)}
        {...(props.danger ? { danger: true } : {})}
      >
        <label>
          {props.label}
          <textarea
            name="text"
            rows={4}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            data-autofocus
          />
        </label>
        <p class="muted">Ctrl+Enter sends.</p>
      </Form>
    </DialogFrame>
  );
}

function ReassignDialog(props: { taskId: string; members: MemberView[]; onClose: Close }) {
  const actions = useRunActions();
  const candidates = props.members.filter(
    (member) => !['terminated', 'errored', 'shutdown_approved'].includes(member.status),
  );
  const [owner, setOwner] = useState(candidates[0]?.name ?? '');
  return (
    <DialogFrame title={`Reassign task #${props.taskId}`} onClose={props.onClose}>
      <Form
        submit="Reassign"
        onClose={props.onClose}
        onSubmit={() =>
          actions.act(
            'reassign',
            { taskId: props.taskId, owner },
            `Task ${props.taskId} reassigned.`,
          )
        }
      >
        <label>
          New owner
          <select name="owner" value={owner} onChange={(e) => setOwner(e.currentTarget.value)}>
            {candidates.map((member) => (
              <option key={member.name} value={member.name}>
                {member.name} ({member.role})
              </option>
            ))}
          </select>
        </label>
      </Form>
    </DialogFrame>
  );
}

const KEYS: [string, string][] = [
  ['← ↑ → ↓', 'move between cards'],
  ['Home / End', 'first / last card of the column'],
  ['Enter', 'open the card'],
  ['a', 'approve (in review or done)'],
  ['c', 'request changes, with a comment'],
  ['b / u', 'block / unblock'],
  ['n', 'new task'],
  ['m', 'send a message'],
  ['1 – 5', 'board, members, messages, timeline, permissions'],
  ['?', 'this help'],
];

/** The dialog a view asked for, or nothing. */
export function RunDialogs(props: {
  dialog: DialogRequest | undefined;
  tasks: Map<string, TaskView>;
  members: MemberView[];
  onClose: Close;
}) {
  const actions = useRunActions();
  const { dialog, onClose } = props;
  if (dialog === undefined) return null;
  switch (dialog.kind) {
    case 'task': {
      const task = props.tasks.get(dialog.taskId);
      return task ? <TaskDialog task={task} members={props.members} onClose={onClose} /> : null;
    }
    case 'createTask':
      return <CreateTaskDialog onClose={onClose} />;
    case 'send':
      return (
        <SendDialog
          members={props.members}
          onClose={onClose}
          {...(dialog.to ? { to: dialog.to } : {})}
        />
      );
    case 'requestChanges':
      return (
        <TextDialog
          title={`Request changes on task #${dialog.taskId}`}
          label="What should change"
          submit="Request changes"
          onClose={onClose}
          onSubmit={(note) =>
            actions.act(
              'requestChanges',
              { taskId: dialog.taskId, note },
              `Changes requested on task ${dialog.taskId}.`,
            )
          }
        />
      );
    case 'reason':
      return (
        <TextDialog
          title={`${dialog.action === 'block' ? 'Block' : 'Cancel'} task #${dialog.taskId}`}
          label="Reason"
          submit={dialog.action === 'block' ? 'Block' : 'Cancel task'}
          danger={dialog.action === 'cancel'}
          onClose={onClose}
          onSubmit={(reason) =>
            actions.act(
              dialog.action,
              { taskId: dialog.taskId, reason },
              `Task ${dialog.taskId} ${dialog.action === 'block' ? 'blocked' : 'cancelled'}.`,
            )
          }
        />
      );
    case 'reassign':
      return <ReassignDialog taskId={dialog.taskId} members={props.members} onClose={onClose} />;
    case 'stopRun':
      return <StopRunDialog onClose={onClose} />;
    case 'help':
      return (
        <DialogFrame title="Keyboard" onClose={onClose}>
          <dl class="keys">
            {KEYS.map(([key, what]) => [
              <dt key={`k${key}`}>{key}</dt>,
              <dd key={`d${key}`}>{what}</dd>,
            ])}
          </dl>
        </DialogFrame>
      );
  }
}

function StopRunDialog(props: { onClose: Close }) {
  const actions = useRunActions();
  const [force, setForce] = useState(false);
  return (
    <DialogFrame title="Stop the run" onClose={props.onClose}>
      <Form
        submit="Stop run"
        danger
        onClose={props.onClose}
        onSubmit={() => actions.act('stopRun', { force }, 'Run stopped.')}
      >
        <p>
          Stops every member, closes their panes and releases their tasks. Worktrees with unsaved
          work are kept unless you force it.
        </p>
        <label class="check">
          <input
            type="checkbox"
            checked={force}
            onChange={(e) => setForce(e.currentTarget.checked)}
          />
          Remove worktrees even with unsaved work
        </label>
      </Form>
    </DialogFrame>
  );
}
