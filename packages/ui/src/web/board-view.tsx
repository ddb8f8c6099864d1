import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import type { BoardColumnId, TaskView } from '../protocol.js';
import { boardColumnsOf, groupTasks, taskActions } from './board-columns.js';
import { ColumnCards } from './column-cards.js';
import { useRunActions } from './ui-context.js';

const DONE = new Set(['completed', 'approved']);

function useMinuteClock(): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 60_000) * 60_000);
  useEffect(() => {
    const timer = setInterval(() => setNow(Math.floor(Date.now() / 60_000) * 60_000), 15_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The kanban board: five columns, cards in id order, cancelled tasks folded below.
 * Arrow keys move between cards; Enter opens one; `a` approves, `c` requests changes.
 */
export function BoardView(props: {
  tasks: Map<string, TaskView>;
  /** The columns the run's source fills; all five when absent. */
  columns?: readonly BoardColumnId[] | undefined;
}) {
  const actions = useRunActions();
  const now = useMinuteClock();
  const shown = useMemo(() => boardColumnsOf(props.columns), [props.columns]);
  const { columns, cancelled } = useMemo(
    () => groupTasks(props.tasks.values(), shown),
    [props.tasks, shown],
  );
  const [activeId, setActiveId] = useState<string | undefined>(undefined);
  // A card to focus once it is rendered: it may be outside its column's window until then.
  const [focusWanted, setFocusWanted] = useState<string | undefined>(undefined);
  const [showCancelled, setShowCancelled] = useState(false);
  const firstId = columns.find((column) => column.length > 0)?.[0]?.id;
  const active = activeId !== undefined && props.tasks.has(activeId) ? activeId : firstId;

  const locate = (id: string): [number, number] | undefined => {
    for (let c = 0; c < columns.length; c += 1) {
      const row = columns[c]?.findIndex((task) => task.id === id) ?? -1;
      if (row !== -1) return [c, row];
    }
    return undefined;
  };

  const focusCard = (id: string | undefined) => {
    if (id === undefined) return;
    setActiveId(id);
    setFocusWanted(id);
  };

  useLayoutEffect(() => {
    if (focusWanted === undefined) return;
    // Focusing scrolls the card's column to it, which brings its neighbours into the window.
    document.getElementById(`card-${focusWanted}`)?.focus();
    setFocusWanted(undefined);
  }, [focusWanted]);

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    const id = target.dataset.taskId;
    if (id === undefined || event.ctrlKey || event.metaKey || event.altKey) return;
    const task = props.tasks.get(id);
    const at = locate(id);
    const move = (column: number, row: number) => {
      // Skip empty columns when moving sideways.
      const step = column < (at?.[0] ?? 0) ? -1 : 1;
      let c = column;
      while (c >= 0 && c < columns.length && (columns[c]?.length ?? 0) === 0) c += step;
      const list = columns[c];
      if (list === undefined || list.length === 0) return;
      focusCard(list[Math.max(0, Math.min(row, list.length - 1))]?.id);
    };
    const handled = (() => {
      switch (event.key) {
        case 'ArrowDown':
          if (at) move(at[0], at[1] + 1);
          return true;
        case 'ArrowUp':
          if (at) move(at[0], at[1] - 1);
          return true;
        case 'ArrowRight':
          if (at) move(at[0] + 1, at[1]);
          return true;
        case 'ArrowLeft':
          if (at) move(at[0] - 1, at[1]);
          return true;
        case 'Home':
          if (at) move(at[0], 0);
          return true;
        case 'End':
          if (at) move(at[0], Number.MAX_SAFE_INTEGER);
          return true;
        case 'Enter':
        case ' ':
          actions.open({ kind: 'task', taskId: id });
          return true;
        case 'a':
          if (task && taskActions(task).approve && actions.offered('approve'))
            void actions.act('approve', { taskId: id }, `Approved task ${id}.`);
          return true;
        case 'c':
          if (task && taskActions(task).requestChanges && actions.offered('requestChanges'))
            actions.open({ kind: 'requestChanges', taskId: id });
          return true;
        case 'b':
          if (task && taskActions(task).block && actions.offered('block'))
            actions.open({ kind: 'reason', action: 'block', taskId: id });
          return true;
        case 'u':
          if (task && taskActions(task).unblock && actions.offered('unblock'))
            void actions.act('unblock', { taskId: id }, `Unblocked task ${id}.`);
          return true;
        default:
          return false;
      }
    })();
    if (handled) event.preventDefault();
  };

  const hasTasks = props.tasks.size > 0;
  useEffect(() => {
    // A mark for measuring the page: the board's first render with cards is on screen.
    if (hasTasks) performance.mark('teamkit:board');
  }, [hasTasks]);

  const openBlockers = (task: TaskView) =>
    task.blockedBy.filter((blocker) => !DONE.has(props.tasks.get(blocker)?.status ?? '')).join(',');

  return (
    <section class="board-wrap" aria-label="Board">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: keys are handled for the focused card inside */}
      <div
        class="board"
        onKeyDown={onKeyDown}
        onClick={(event) => {
          const card = (event.target as HTMLElement).closest<HTMLElement>('[data-task-id]');
          const id = card?.dataset.taskId;
          if (id === undefined) return;
          setActiveId(id);
          actions.open({ kind: 'task', taskId: id });
        }}
      >
        {shown.map((column, index) => {
          const list = columns[index] ?? [];
          return (
            <section
              class="column"
              key={column.id}
              data-column={column.id}
              aria-label={column.title}
            >
              <h2 class="column-head">
                {column.title} <span class="count">{list.length}</span>
              </h2>
              <ColumnCards tasks={list} activeId={active} openBlockers={openBlockers} now={now} />
            </section>
          );
        })}
      </div>
      {cancelled.length > 0 ? (
        <div class="cancelled-fold">
          <button type="button" class="ghost" onClick={() => setShowCancelled(!showCancelled)}>
            {showCancelled ? 'Hide' : 'Show'} cancelled ({cancelled.length})
          </button>
          {showCancelled ? (
            <ul class="cancelled-list">
              {cancelled.map((task) => (
                <li key={task.id}>
                  <button
                    type="button"
                    class="link"
                    onClick={() => actions.open({ kind: 'task', taskId: task.id })}
                  >
                    #{task.id} {task.subject}
                  </button>{' '}
                  <span class="muted">{task.cancelledReason ?? ''}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
