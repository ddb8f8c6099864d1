export type { RunContext, RunContextOptions } from './run-context.js';
export {
  assertRunWritable,
  createRunContext,
  INACTIVE_MEMBER_STATUSES,
  isActiveMember,
  requireMember,
} from './run-context.js';
