import type { MemberView, MessageView, RunSourceId, TaskView } from '../protocol.js';
import { age } from './format.js';
import { useRunActions } from './ui-context.js';

const WORKING = ['claimed', 'in_progress', 'in_review'];
const GONE = ['terminated', 'errored', 'shutdown_approved'];

/**
 * Every member: status, current task, unread mail, last message, and what the source
 * knows besides (a Teamkit member's turns, worktree and diff; a Claude Code teammate's
 * model, backend and folder).
 */
export function MembersView(props: {
  members: MemberView[];
  tasks: Map<string, TaskView>;
  messages: MessageView[];
  source: RunSourceId;
}) {
  const teamkit = props.source === 'teamkit';
  const actions = useRunActions();
  const now = Date.now();
  const current = new Map<string, TaskView>();
  for (const task of props.tasks.values())
    if (task.owner !== undefined && WORKING.includes(task.status)) current.set(task.owner, task);
  const last = new Map<string, MessageView>();
  for (const message of props.messages)
    for (const name of [message.from, ...message.to]) last.set(name, message);
  return (
    <section class="members" aria-label="Members">
      {props.members.map((member) => {
        const task = current.get(member.name);
        const message = last.get(member.name);
        return (
          <article class="member" key={member.name} data-member={member.name}>
            <header class="member-head">
              <h2>
                {member.name}
                {member.isLead ? <span class="chip lead">lead</span> : null}
              </h2>
              <span class={`status status-${member.status}`}>
                {member.status.replace('_', ' ')}
              </span>
            </header>
            <dl class="facts">
              <dt>Role</dt>
              <dd>{member.role}</dd>
              <dt>Working on</dt>
              <dd>
                {task ? (
                  <button
                    type="button"
                    class="link"
                    onClick={() => actions.open({ kind: 'task', taskId: task.id })}
                  >
                    #{task.id} {task.subject} ({task.status.replace('_', ' ')})
                  </button>
                ) : (
                  '—'
                )}
              </dd>
              <dt>{teamkit ? 'Unread' : 'Waiting in inbox'}</dt>
              <dd data-field="unread">{member.unread}</dd>
              <dt>Last message</dt>
              <dd>
                {message
                  ? `${message.from === member.name ? `→ ${message.broadcast ? 'everyone' : message.to.join(', ')}` : `← ${message.from}`} · ${message.summary ?? message.kind} · ${age(now - message.at)} ago`
                  : '—'}
              </dd>
              {teamkit ? (
                <>
                  <dt>Turns</dt>
                  <dd>{member.turns ?? '—'}</dd>
                  <dt>Branch</dt>
                  <dd class="mono">{member.branch ?? '—'}</dd>
                </>
              ) : null}
              <dt>{teamkit ? 'Worktree' : 'Folder'}</dt>
              <dd class="mono small" title={member.worktreePath}>
                {member.worktreeLabel ?? member.worktreePath ?? '—'}
              </dd>
              {teamkit ? (
                <>
                  <dt>Changes</dt>
                  <dd data-field="diff">
                    {member.diff
                      ? `${member.diff.commits} commit${member.diff.commits === 1 ? '' : 's'}, ${member.diff.files} file${member.diff.files === 1 ? '' : 's'} +${member.diff.insertions} −${member.diff.deletions}`
                      : '—'}
                  </dd>
                </>
              ) : null}
              {(member.facts ?? []).map((fact) => [
                <dt key={`t${fact.label}`}>{fact.label}</dt>,
                <dd key={`d${fact.label}`} class="small">
                  {fact.value}
                </dd>,
              ])}
            </dl>
            {member.statusReason ? <p class="muted">{member.statusReason}</p> : null}
            <div class="form-buttons">
              {actions.offered('send') ? (
                <button
                  type="button"
                  disabled={!actions.allowed('send')}
                  onClick={() => actions.open({ kind: 'send', to: member.name })}
                >
                  Message
                </button>
              ) : null}
              {actions.offered('requestShutdown') &&
              !member.isLead &&
              !GONE.includes(member.status) ? (
                <button
                  type="button"
                  disabled={!actions.allowed('requestShutdown')}
                  onClick={() =>
                    actions.act(
                      'requestShutdown',
                      { member: member.name },
                      `Asked ${member.name} to shut down.`,
                    )
                  }
                >
                  Request shutdown
                </button>
              ) : null}
            </div>
          </article>
        );
      })}
    </section>
  );
}
