export type { RunContext, RunContextOptions } from './run-context.js';
export {
  assertRunWritable,
  createRunContext,
  INACTIVE_MEMBER_STATUSES,
  isActiveMember,
  requireMember,
  WRITABLE_RUN_STATUSES,
} from './run-context.js';
