export type { OpenRunOptions, RunEventsAccess, RunHandle, RunStateAccess } from './open-run.js';
export { openRun } from './open-run.js';
