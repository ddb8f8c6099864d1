/**
 * @teamkit/repo-testing: test plumbing of the Teamkit repository itself, never published.
 *
 * @packageDocumentation
 */
export { SOURCE_CONDITION, sourceNodeArgs } from './source-node-args.js';
