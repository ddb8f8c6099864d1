export type { RunContext, RunContextOptions } from './run-context.js';
export { assertRunWritable, createRunContext } from './run-context.js';
