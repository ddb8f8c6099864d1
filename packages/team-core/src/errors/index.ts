export type { TeamkitErrorCode, TeamkitErrorKind } from './error-codes.js';
export { TEAMKIT_ERROR_CODES } from './error-codes.js';
export type { TeamkitErrorOptions } from './teamkit-error.js';
export { isTeamkitError, TeamkitError } from './teamkit-error.js';
