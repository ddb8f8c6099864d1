// `@teamkit/team-core/run-listing`: which runs a home has, without loading the schemas,
// the run state module or the store's document layer (a command that only lists stays cheap).
export { isRunId, RUN_ID_PATTERN } from '../schema/run-id-pattern.js';
export { listRunIds, RUNTIME_PREFIX } from './list-run-ids.js';
export { looksFinished } from './peek-run-status.js';
