/**
 * Placeholder entry point; this package is filled by its own issue.
 */
export {};
