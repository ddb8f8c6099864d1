import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ActionName } from '../protocol.js';
import { ActionError, openRunStream, postAction } from './api.js';
import { BoardView } from './board-view.js';
import { shortId, when } from './format.js';
import { MembersView } from './members-view.js';
import { MessagesView } from './messages-view.js';
import { PermissionsView } from './permissions-view.js';
import { RunDialogs } from './run-dialogs.js';
import { applyDelta, modelOf, type RunModel } from './run-store.js';
import { TimelineView } from './timeline-view.js';
import {
  type DialogRequest,
  type RunActions,
  RunActionsContext,
  type Toast,
} from './ui-context.js';

/** The tabs of a run, in keyboard order (keys 1–5). */
export const RUN_TABS = ['board', 'members', 'messages', 'timeline', 'permissions'] as const;
/** A tab of the run view. */
export type RunTab = (typeof RUN_TABS)[number];

/** One run, live: heading, tabs, and the dialogs of its actions. */
export function RunView(props: {
  source: string;
  runId: string;
  tab: RunTab;
  toast: (kind: Toast['kind'], text: string) => void;
}) {
  const [model, setModel] = useState<RunModel | undefined>(undefined);
  const [link, setLink] = useState<'connecting' | 'live' | 'reconnecting' | { error: string }>(
    'connecting',
  );
  const [dialog, setDialog] = useState<DialogRequest | undefined>(undefined);

  useEffect(() => {
    setModel(undefined);
    return openRunStream(props.source, props.runId, {
      snapshot: (snapshot) => setModel(modelOf(snapshot)),
      delta: (delta) => setModel((current) => (current ? applyDelta(current, delta) : current)),
      status: setLink,
    });
  }, [props.source, props.runId]);

  const actions = useMemo<RunActions>(
    () => ({
      allowed: (action: ActionName) => model?.header.actions.includes(action) ?? false,
      open: setDialog,
      async act(action, input, done) {
        try {
          await postAction(props.source, props.runId, action, input);
          if (done) props.toast('info', done);
          return true;
        } catch (error) {
          props.toast(
            'error',
            error instanceof ActionError ? `${error.code}: ${error.message}` : String(error),
          );
          return false;
        }
      },
    }),
    [model?.header.actions, props.source, props.runId],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (dialog !== undefined || event.ctrlKey || event.metaKey || event.altKey) return;
      if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      const index = Number(event.key) - 1;
      if (index >= 0 && index < RUN_TABS.length) {
        location.hash = `#/run/${props.source}/${props.runId}/${RUN_TABS[index]}`;
      } else if (event.key === 'n' && actions.allowed('createTask'))
        setDialog({ kind: 'createTask' });
      else if (event.key === 'm' && actions.allowed('send')) setDialog({ kind: 'send' });
      else if (event.key === '?') setDialog({ kind: 'help' });
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [dialog, actions, props.source, props.runId]);

  if (typeof link === 'object' && model === undefined)
    return (
      <main class="run">
        <p role="alert" class="error-panel">
          {link.error}
        </p>
      </main>
    );
  if (model === undefined)
    return (
      <main class="run">
        <p class="muted">Loading run {shortId(props.runId)}…</p>
      </main>
    );

  const { header } = model;
  const counted = [...model.tasks.values()].filter((task) => task.status !== 'cancelled');
  const done = counted.filter((task) => ['completed', 'approved'].includes(task.status)).length;
  const tabCount: Partial<Record<RunTab, number>> = {
    members: model.members.length,
    permissions: model.permissions.length,
  };

  return (
    <RunActionsContext.Provider value={actions}>
      <main class="run" data-run={header.runId}>
        <header class="run-head">
          <div class="run-title">
            <h1>
              {header.teamName} <span class="muted mono">{shortId(header.runId)}</span>
            </h1>
            <span class={`status status-${header.status}`} data-field="run-status">
              {header.status.replace('_', ' ')}
            </span>
            <span class="muted">
              started {when(header.createdAt)} · host {header.host}
              {header.actingAs ? ` · you act as ${header.actingAs}` : ''}
            </span>
            <span class={`link-state ${typeof link === 'string' ? link : 'error'}`}>
              {typeof link === 'string' ? link : 'disconnected'}
            </span>
          </div>
          <div class="run-progress">
            <progress max={Math.max(1, counted.length)} value={done} aria-label="Tasks done" />
            <span data-field="progress">
              {done}/{counted.length} done
            </span>
          </div>
          <div class="run-actions">
            <button
              type="button"
              class="primary"
              disabled={!actions.allowed('createTask')}
              onClick={() => setDialog({ kind: 'createTask' })}
            >
              New task (n)
            </button>
            <button
              type="button"
              disabled={!actions.allowed('send')}
              onClick={() => setDialog({ kind: 'send' })}
            >
              Message (m)
            </button>
            <button
              type="button"
              disabled={!actions.allowed('merge')}
              title={
                header.unavailable.merge ??
                'Merge every approved task’s work into the base branch, in dependency order'
              }
              onClick={() => actions.act('merge', {}, 'Merged the approved work')}
            >
              Merge
            </button>
            <button
              type="button"
              class="danger"
              disabled={!actions.allowed('stopRun')}
              onClick={() => setDialog({ kind: 'stopRun' })}
            >
              Stop run
            </button>
            <button type="button" class="ghost" onClick={() => setDialog({ kind: 'help' })}>
              Keys (?)
            </button>
          </div>
        </header>
        <nav class="tabs" aria-label="Run views">
          {RUN_TABS.map((tab, index) => (
            <a
              key={tab}
              href={`#/run/${props.source}/${props.runId}/${tab}`}
              class={tab === props.tab ? 'tab current' : 'tab'}
              aria-current={tab === props.tab ? 'page' : undefined}
            >
              {index + 1} {tab}
              {tabCount[tab] ? <span class="count">{tabCount[tab]}</span> : null}
            </a>
          ))}
        </nav>
        {model.problems.length > 0 ? (
          <p class="warning">Unreadable files left in place: {model.problems.join('; ')}</p>
        ) : null}
        {props.tab === 'board' ? <BoardView tasks={model.tasks} /> : null}
        {props.tab === 'members' ? (
          <MembersView members={model.members} tasks={model.tasks} messages={model.messages} />
        ) : null}
        {props.tab === 'messages' ? (
          <MessagesView messages={model.messages} members={model.members} />
        ) : null}
        {props.tab === 'timeline' ? <TimelineView events={model.events} /> : null}
        {props.tab === 'permissions' ? <PermissionsView permissions={model.permissions} /> : null}
        <RunDialogs
          dialog={dialog}
          tasks={model.tasks}
          members={model.members}
          onClose={() => setDialog(undefined)}
        />
      </main>
    </RunActionsContext.Provider>
  );
}
