import { useState } from 'preact/hooks';
import type { ActionName, MemberView, RunForms, RunViewName, TaskView } from '../protocol.js';
import { DialogFrame } from './dialog-frame.js';
import { TaskDialog } from './task-dialog.js';
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

/** Everything a form asks for, as for a Teamkit run. */
const FULL_FORMS: RunForms = {
  send: { broadcast: true, kinds: true, summary: false },
  createTask: { dependencies: true, role: true },
};

function CreateTaskDialog(props: { form: RunForms['createTask']; onClose: Close }) {
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
          actions.act(
            'createTask',
            {
              subject,
              description,
              ...(props.form.dependencies ? { blockedBy } : {}),
              ...(props.form.role ? { role } : {}),
            },
            'Task created.',
          )
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
        {props.form.dependencies ? (
          <label>
            After tasks (ids, comma-separated)
            <input
              name="blockedBy"
              value={blockedBy}
              placeholder="e.g. 1, 3"
              onInput={(e) => setBlockedBy(e.currentTarget.value)}
            />
          </label>
        ) : null}
        {props.form.role ? (
          <label>
            Role
            <input name="role" value={role} onInput={(e) => setRole(e.currentTarget.value)} />
          </label>
        ) : null}
        {props.form.dependencies && props.form.role ? null : (
          <p class="muted">Dependencies and owners are set from inside the team.</p>
        )}
      </Form>
    </DialogFrame>
  );
}

function SendDialog(props: {
  members: MemberView[];
  form: RunForms['send'];
  to?: string;
  onClose: Close;
}) {
  const actions = useRunActions();
  const lead = props.members.find((member) => member.isLead)?.name ?? props.members[0]?.name;
  const [to, setTo] = useState(props.to ?? (props.form.broadcast ? '*' : (lead ?? '')));
  const [kind, setKind] = useState('message');
  const [summary, setSummary] = useState('');
  const [body, setBody] = useState('');
  return (
    <DialogFrame title="Send a message" onClose={props.onClose}>
      <Form
        submit="Send"
        onClose={props.onClose}
        onSubmit={() =>
          actions.act(
            'send',
            {
              to,
              body,
              ...(props.form.kinds ? { kind } : {}),
              ...(props.form.summary && summary !== '' ? { summary } : {}),
            },
            'Message sent.',
          )
        }
      >
        <label>
          To
          <select name="to" value={to} onChange={(e) => setTo(e.currentTarget.value)}>
            {props.form.broadcast ? <option value="*">everyone (broadcast)</option> : null}
            {props.members.map((member) => (
              <option key={member.name} value={member.name}>
                {member.name}
                {member.isLead ? ' (lead)' : ''}
              </option>
            ))}
          </select>
        </label>
        {props.form.kinds ? (
          <label>
            Kind
            <select name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
              <option value="message">message</option>
              <option value="announcement">announcement</option>
              <option value="task_update">task update</option>
            </select>
          </label>
        ) : null}
        {props.form.summary ? (
          <label>
            Summary (optional, one line)
            <input
              name="summary"
              value={summary}
              maxLength={200}
              onInput={(e) => setSummary(e.currentTarget.value)}
            />
          </label>
        ) : null}
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

/** The keys of the board, each with the action it needs (if any). */
const KEYS: [string, string, ActionName?][] = [
  ['← ↑ → ↓', 'move between cards'],
  ['Home / End', 'first / last card of the column'],
  ['Enter', 'open the card'],
  ['a', 'approve (in review or done)', 'approve'],
  ['c', 'request changes, with a comment', 'requestChanges'],
  ['b / u', 'block / unblock', 'block'],
  ['n', 'new task', 'createTask'],
  ['m', 'send a message', 'send'],
  ['?', 'this help'],
];

/** The dialog a view asked for, or nothing. */
export function RunDialogs(props: {
  dialog: DialogRequest | undefined;
  tasks: Map<string, TaskView>;
  members: MemberView[];
  /** What the run's source takes in its forms; Teamkit's full forms when absent. */
  forms: RunForms | undefined;
  /** The run's views, in keyboard order. */
  views: readonly RunViewName[];
  onClose: Close;
}) {
  const actions = useRunActions();
  const { dialog, onClose } = props;
  const forms = props.forms ?? FULL_FORMS;
  if (dialog === undefined) return null;
  switch (dialog.kind) {
    case 'task': {
      const task = props.tasks.get(dialog.taskId);
      return task ? <TaskDialog task={task} members={props.members} onClose={onClose} /> : null;
    }
    case 'createTask':
      return <CreateTaskDialog form={forms.createTask} onClose={onClose} />;
    case 'send':
      return (
        <SendDialog
          members={props.members}
          form={forms.send}
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
            {[
              ...KEYS.filter(([, , action]) => action === undefined || actions.offered(action)),
              [`1 – ${props.views.length}`, props.views.join(', ')] as const,
            ].map(([key, what]) => [
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
