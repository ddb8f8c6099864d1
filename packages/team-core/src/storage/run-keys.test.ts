import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { runKeys } from './run-keys.js';
import { runPaths } from './teamkit-home.js';

const RUN = '5f0c2a52-7f0e-4d1e-9a3b-2f1d3c4b5a69';

describe('runKeys', () => {
  it('names the same files as runPaths, relative to the home', () => {
    const home = path.resolve('/home/someone/.teamkit');
    const keys = runKeys(RUN);
    const paths = runPaths(home, RUN);
    const asPath = (key: string) => path.join(home, ...key.split('/'));
    expect(asPath(keys.root)).toBe(paths.root);
    expect(asPath(keys.state)).toBe(paths.state);
    expect(asPath(keys.events)).toBe(paths.events);
    expect(asPath(keys.inboxes)).toBe(paths.inboxes);
    expect(asPath(keys.inbox('writer-2'))).toBe(paths.inbox('writer-2'));
    expect(asPath(keys.tasks)).toBe(paths.tasks);
    expect(asPath(keys.task('12'))).toBe(paths.task('12'));
    expect(keys.taskWatermark).toBe(`runtime/${RUN}/tasks/.highwatermark`);
    expect(keys.sentSlot(3)).toBe(`runtime/${RUN}/inboxes/.sent/3`);
    expect(keys.presence('lead')).toBe(`runtime/${RUN}/presence/lead.json`);
    expect(keys.handoffs('lead')).toBe(`runtime/${RUN}/handoff/lead`);
    expect(keys.team).toBe(`runtime/${RUN}/team.json`);
  });

  it.each([
    ['a run id that is not a UUID', () => runKeys('../x')],
    ['a member name with a separator', () => runKeys(RUN).inbox('a/b')],
    ['a member name ..', () => runKeys(RUN).presence('..')],
    ['a task id that is not a number', () => runKeys(RUN).task('1/../2')],
  ])('refuses %s with PATH_TRAVERSAL', (_, build) => {
    let caught: unknown;
    try {
      build();
    } catch (error) {
      caught = error;
    }
    expect(isTeamkitError(caught, 'PATH_TRAVERSAL')).toBe(true);
  });
});
