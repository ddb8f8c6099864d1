/**
 * The Claude Code versions whose team files Teamkit was checked against, with the real
 * binary. Another version is read all the same, with an `UNCHECKED_VERSION` warning.
 */
export const CHECKED_CLAUDE_CODE_VERSIONS: readonly string[] = ['2.1.328'];

/** True when `version` is one of {@link CHECKED_CLAUDE_CODE_VERSIONS}. */
export function isCheckedClaudeCodeVersion(version: string): boolean {
  return CHECKED_CLAUDE_CODE_VERSIONS.includes(version);
}
