// `@teamkit/team-core/home`: where the Teamkit home is and which runs it holds, without
// loading the schemas, the run state module or the store's document layer, so a command
// that only finds its home and lists runs stays cheap.
export { isRunId, RUN_ID_PATTERN } from '../schema/run-id-pattern.js';
export { expandHome, resolveTeamkitHome } from '../storage/home-folder.js';
export { homeFolderHoldsNoRuns, listRunIds, RUNTIME_PREFIX } from './list-run-ids.js';
export { looksFinished } from './peek-run-status.js';
