export type { TeamkitErrorCode, TeamkitErrorKind } from './error-codes.js';
export { TEAMKIT_ERROR_CODES } from './error-codes.js';
export type { ErrorMessageOptions } from './error-message.js';
export { errorMessage } from './error-message.js';
export type { TeamkitErrorOptions } from './teamkit-error.js';
export { isTeamkitError, TeamkitError } from './teamkit-error.js';
