/**
 * Helpers for Teamkit's own tests and for harnesses that start worker processes.
 *
 * @packageDocumentation
 */
export { SOURCE_CONDITION, sourceNodeArgs } from './source-node-args.js';
