import { describe, expect, it } from 'vitest';
import { summarizeRunTasks } from './run-summary.js';

describe('summarizeRunTasks', () => {
  it('counts every status and leaves deleted and cancelled tasks out of the progress', () => {
    const summary = summarizeRunTasks(
      (['pending', 'completed', 'approved', 'in_review', 'cancelled', 'deleted'] as const).map(
        (status) => ({ status }),
      ),
    );
    expect(summary.progress).toEqual({ done: 2, total: 4 });
    expect(summary.tasksByStatus).toMatchObject({
      pending: 1,
      completed: 1,
      approved: 1,
      in_review: 1,
      cancelled: 1,
      deleted: 1,
      claimed: 0,
      blocked: 0,
    });
  });

  it('gives zeros for a run without tasks', () => {
    const summary = summarizeRunTasks([]);
    expect(summary.progress).toEqual({ done: 0, total: 0 });
    expect(Object.values(summary.tasksByStatus).every((count) => count === 0)).toBe(true);
  });
});
