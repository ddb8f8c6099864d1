import { useEffect, useMemo, useState } from 'preact/hooks';
import { ACTION_NAMES, type ActionName, RUN_VIEWS, type RunViewName } from '../protocol.js';
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

/** What an action's answer may carry besides its result: warnings the user should read. */
function warningsOf(result: unknown): string[] {
  const warnings = (result as { warnings?: unknown } | undefined)?.warnings;
  if (!Array.isArray(warnings)) return [];
  return warnings.flatMap((warning: { code?: unknown; message?: unknown }) =>
    typeof warning?.message === 'string' ? [`${String(warning.code)}: ${warning.message}`] : [],
  );
}

/** One run, live: heading, tabs, and the dialogs of its actions. */
export function RunView(props: {
  source: string;
  runId: string;
  tab: RunViewName;
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
      offered: (action: ActionName) => (model?.header.offers ?? ACTION_NAMES).includes(action),
      open: setDialog,
      async act(action, input, done) {
        try {
          const result = await postAction(props.source, props.runId, action, input);
          if (done) props.toast('info', done);
          for (const warning of warningsOf(result)) props.toast('info', warning);
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
    [model?.header.actions, model?.header.offers, props.source, props.runId],
  );
  const views: readonly RunViewName[] = model?.header.views ?? RUN_VIEWS;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (dialog !== undefined || event.ctrlKey || event.metaKey || event.altKey) return;
      if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      const index = Number(event.key) - 1;
      if (index >= 0 && index < views.length) {
        location.hash = `#/run/${props.source}/${props.runId}/${views[index]}`;
      } else if (event.key === 'n' && actions.allowed('createTask'))
        setDialog({ kind: 'createTask' });
      else if (event.key === 'm' && actions.allowed('send')) setDialog({ kind: 'send' });
      else if (event.key === '?') setDialog({ kind: 'help' });
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [dialog, actions, views, props.source, props.runId]);

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
  const tabCount: Partial<Record<RunViewName, number>> = {
    members: model.members.length,
    permissions: model.permissions.length,
  };
  // A link to a view this source has not (a Claude Code team's timeline) opens its first.
  const tab = views.includes(props.tab) ? props.tab : (views[0] ?? 'board');
  const button = (action: ActionName) => actions.offered(action);
  const why = (action: ActionName) => header.unavailable[action];

  return (
    <RunActionsContext.Provider value={actions}>
      <main class="run" data-run={header.runId} data-source={header.source}>
        <header class="run-head">
          <div class="run-title">
            <h1>
              {header.teamName} <span class="muted mono">{shortId(header.runId)}</span>
            </h1>
            <span
              class={`status status-${header.status}`}
              data-field="run-status"
              title={header.statusReason}
            >
              {header.status.replace('_', ' ')}
            </span>
            <span class="muted">
              started {when(header.createdAt)} · host {header.host}
              {header.actingAs
                ? ` · ${header.source === 'teamkit' ? 'you act as' : 'you write as'} ${header.actingAs}`
                : ''}
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
            {button('createTask') ? (
              <button
                type="button"
                class="primary"
                disabled={!actions.allowed('createTask')}
                title={why('createTask')}
                onClick={() => setDialog({ kind: 'createTask' })}
              >
                New task (n)
              </button>
            ) : null}
            {button('send') ? (
              <button
                type="button"
                disabled={!actions.allowed('send')}
                title={why('send')}
                onClick={() => setDialog({ kind: 'send' })}
              >
                Message (m)
              </button>
            ) : null}
            {button('merge') ? (
              <button
                type="button"
                disabled={!actions.allowed('merge')}
                title={
                  why('merge') ??
                  'Merge every approved task’s work into the base branch, in dependency order'
                }
                onClick={() => actions.act('merge', {}, 'Merged the approved work')}
              >
                Merge
              </button>
            ) : null}
            {button('stopRun') ? (
              <button
                type="button"
                class="danger"
                disabled={!actions.allowed('stopRun')}
                onClick={() => setDialog({ kind: 'stopRun' })}
              >
                Stop run
              </button>
            ) : null}
            <button type="button" class="ghost" onClick={() => setDialog({ kind: 'help' })}>
              Keys (?)
            </button>
          </div>
        </header>
        {header.statusReason && header.source !== 'teamkit' ? (
          <p class="muted" data-field="status-reason">
            {header.status}: {header.statusReason}
          </p>
        ) : null}
        {(header.notes ?? []).length > 0 ? (
          <ul class="notes" aria-label="About this run">
            {(header.notes ?? []).map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        ) : null}
        <nav class="tabs" aria-label="Run views">
          {views.map((view, index) => (
            <a
              key={view}
              href={`#/run/${props.source}/${props.runId}/${view}`}
              class={view === tab ? 'tab current' : 'tab'}
              aria-current={view === tab ? 'page' : undefined}
            >
              {index + 1} {view}
              {tabCount[view] ? <span class="count">{tabCount[view]}</span> : null}
            </a>
          ))}
        </nav>
        {model.problems.length > 0 ? (
          <p class="warning">Unreadable files left in place: {model.problems.join('; ')}</p>
        ) : null}
        {tab === 'board' ? <BoardView tasks={model.tasks} columns={header.columns} /> : null}
        {tab === 'members' ? (
          <MembersView
            members={model.members}
            tasks={model.tasks}
            messages={model.messages}
            source={header.source}
          />
        ) : null}
        {tab === 'messages' ? (
          <MessagesView messages={model.messages} members={model.members} />
        ) : null}
        {tab === 'timeline' ? <TimelineView events={model.events} /> : null}
        {tab === 'permissions' ? <PermissionsView permissions={model.permissions} /> : null}
        <RunDialogs
          dialog={dialog}
          tasks={model.tasks}
          members={model.members}
          forms={header.forms}
          views={views}
          onClose={() => setDialog(undefined)}
        />
      </main>
    </RunActionsContext.Provider>
  );
}
