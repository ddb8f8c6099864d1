export type { OpenRunLayoutInput } from './run-layout.js';
export { closeRunLayout, openRunLayout } from './run-layout.js';
export type {
  SweepStaleSessionsOptions,
  SweepStaleSessionsReport,
} from './sweep-stale-sessions.js';
export { sweepStaleSessions } from './sweep-stale-sessions.js';
export type {
  CreateTmuxLayoutInput,
  LayoutMember,
  LayoutRemovalReport,
  ListedPane,
} from './tmux-layout.js';
export {
  closeMemberPane,
  createTmuxLayout,
  isTmuxColor,
  layoutSessionName,
  listPanes,
  markMemberPane,
  paneCommand,
  rebalanceLayout,
  removeTmuxLayout,
  SESSION_RUN_OPTION,
} from './tmux-layout.js';
export type { TmuxRunner, TmuxRunnerOptions } from './tmux-runner.js';
export { createTmuxRunner } from './tmux-runner.js';
