import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { TaskView } from '../protocol.js';
import { cardsBetween, layoutColumn } from './card-layout.js';
import { TaskCard } from './task-card.js';

/** Cards drawn above and below the visible part of a column, so a quick scroll shows no gap. */
const OVERSCAN_PX = 600;

/**
 * The cards of one board column, windowed: the column scrolls over a track as tall as all
 * its cards, and only the cards within sight (plus a margin, plus the card the keyboard is
 * on) are in the page. A column of thousands of cards costs what a screenful costs.
 */
export function ColumnCards(props: {
  tasks: readonly TaskView[];
  /** The card the keyboard is on; always in the page, so it keeps its focus. */
  activeId: string | undefined;
  openBlockers: (task: TaskView) => string;
  now: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // Before the column is measured, assume it is as tall as the window.
  const [view, setView] = useState(() => ({ top: 0, height: innerHeight }));
  const layout = useMemo(() => layoutColumn(props.tasks), [props.tasks]);

  useEffect(() => {
    const element = ref.current;
    if (element === null) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      setView((current) =>
        current.top === element.scrollTop && current.height === element.clientHeight
          ? current
          : { top: element.scrollTop, height: element.clientHeight },
      );
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    element.addEventListener('scroll', schedule, { passive: true });
    const resize = new ResizeObserver(schedule);
    resize.observe(element);
    return () => {
      element.removeEventListener('scroll', schedule);
      resize.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, []);

  const range = cardsBetween(layout, view.top - OVERSCAN_PX, view.top + view.height + OVERSCAN_PX);
  const shown: number[] = [];
  if (range !== undefined)
    for (let index = range[0]; index <= range[1]; index += 1) shown.push(index);
  const activeIndex =
    props.activeId === undefined ? -1 : props.tasks.findIndex((task) => task.id === props.activeId);
  if (activeIndex !== -1 && !shown.includes(activeIndex)) shown.push(activeIndex);

  return (
    <div class="column-cards" ref={ref} role="feed" aria-busy="false">
      <div class="column-track" style={{ height: `${layout.total}px` }}>
        {shown.map((index) => {
          const task = props.tasks[index] as TaskView;
          return (
            <TaskCard
              key={task.id}
              task={task}
              active={task.id === props.activeId}
              openBlockers={props.openBlockers(task)}
              now={props.now}
              top={layout.tops[index] ?? 0}
              position={index + 1}
              count={props.tasks.length}
            />
          );
        })}
      </div>
    </div>
  );
}
