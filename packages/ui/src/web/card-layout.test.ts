import { describe, expect, it } from 'vitest';
import type { TaskView } from '../protocol.js';
import {
  CARD_GAP,
  CARD_HEIGHT,
  CARD_WITH_BADGE_HEIGHT,
  COLUMN_PADDING,
  cardsBetween,
  layoutColumn,
} from './card-layout.js';

function task(id: number, fields: Partial<TaskView> = {}): TaskView {
  return {
    id: String(id),
    subject: `Task ${id}`,
    description: '',
    status: 'pending',
    blockedBy: [],
    blocks: [],
    ...fields,
  };
}

describe('card layout', () => {
  it('stacks cards by their heights, badges making a card taller', () => {
    const layout = layoutColumn([task(1), task(2, { status: 'blocked' }), task(3)]);
    expect([...layout.tops]).toEqual([
      COLUMN_PADDING,
      COLUMN_PADDING + CARD_HEIGHT + CARD_GAP,
      COLUMN_PADDING + CARD_HEIGHT + CARD_GAP + CARD_WITH_BADGE_HEIGHT + CARD_GAP,
    ]);
    expect(layout.total).toBe(
      2 * COLUMN_PADDING + 2 * CARD_HEIGHT + CARD_WITH_BADGE_HEIGHT + 2 * CARD_GAP,
    );
    expect(layoutColumn([]).total).toBe(0);
  });

  it('finds exactly the cards a window overlaps, in a column of thousands', () => {
    const tasks = Array.from({ length: 5_000 }, (_, index) =>
      task(index + 1, index % 7 === 0 ? { needsFix: true, status: 'in_progress' } : {}),
    );
    const layout = layoutColumn(tasks);
    for (const from of [0, 1, 999, 123_456, layout.total - 300]) {
      const to = from + 600;
      const range = cardsBetween(layout, from, to);
      expect(range).toBeDefined();
      const [first, last] = range ?? [0, 0];
      const overlaps = (index: number) =>
        (layout.tops[index] ?? 0) < to &&
        (layout.tops[index] ?? 0) + (layout.heights[index] ?? 0) > from;
      for (let index = first; index <= last; index += 1) expect(overlaps(index)).toBe(true);
      if (first > 0) expect(overlaps(first - 1)).toBe(false);
      if (last < tasks.length - 1) expect(overlaps(last + 1)).toBe(false);
    }
    expect(cardsBetween(layout, layout.total + 10, layout.total + 500)).toBeUndefined();
    expect(cardsBetween(layoutColumn([]), 0, 500)).toBeUndefined();
  });
});
