import type { TaskView } from '../protocol.js';

/**
 * Where each card of a column sits. Cards have a height known from their task alone (a
 * card with a badge line is taller), so a column of thousands of cards is laid out
 * without measuring the page, and only the cards in view need to exist in it.
 */

/** Height of a card without a badge line, in CSS pixels (borders included). */
export const CARD_HEIGHT = 76;
/** Height of a card with a badge line (blocked, changes requested, cancelled). */
export const CARD_WITH_BADGE_HEIGHT = 96;
/** Space between two cards. */
export const CARD_GAP = 6;
/** Space above the first card and below the last. */
export const COLUMN_PADDING = 8;

/** True when the card shows a badge line under its facts. */
export function hasBadge(task: TaskView): boolean {
  return task.status === 'blocked' || task.status === 'cancelled' || task.needsFix === true;
}

/** The height of `task`'s card. */
export function cardHeight(task: TaskView): number {
  return hasBadge(task) ? CARD_WITH_BADGE_HEIGHT : CARD_HEIGHT;
}

/** The top of every card of a column, and the height of the whole column. */
export interface ColumnLayout {
  /** `tops[i]` is the offset of card `i` from the top of the column's track. */
  tops: Float64Array;
  heights: Float64Array;
  total: number;
}

/** Lays out a column's cards one under the other. */
export function layoutColumn(tasks: readonly TaskView[]): ColumnLayout {
  const tops = new Float64Array(tasks.length);
  const heights = new Float64Array(tasks.length);
  let y = COLUMN_PADDING;
  tasks.forEach((task, index) => {
    const height = cardHeight(task);
    tops[index] = y;
    heights[index] = height;
    y += height + CARD_GAP;
  });
  const total = tasks.length === 0 ? 0 : y - CARD_GAP + COLUMN_PADDING;
  return { tops, heights, total };
}

/**
 * The first and last index of the cards that overlap `[from, to)` of the track, or
 * `undefined` when none does. Binary search: a column of any length costs the same.
 */
export function cardsBetween(
  layout: ColumnLayout,
  from: number,
  to: number,
): [number, number] | undefined {
  const count = layout.tops.length;
  if (count === 0 || to <= from) return undefined;
  // The first card whose bottom is below `from`.
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((layout.tops[middle] ?? 0) + (layout.heights[middle] ?? 0) <= from) low = middle + 1;
    else high = middle;
  }
  const first = low;
  if (first >= count || (layout.tops[first] ?? 0) >= to) return undefined;
  // The last card whose top is above `to`.
  low = first;
  high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((layout.tops[middle] ?? 0) < to) low = middle + 1;
    else high = middle;
  }
  return [first, low - 1];
}
