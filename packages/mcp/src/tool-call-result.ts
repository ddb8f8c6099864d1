import type { CallToolResult } from '@modelcontextprotocol/server';
import { isTeamkitError } from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';
import type { TeamToolAnswer } from '@teamkit/team-core/tools';

/**
 * A tool's answer as MCP returns it: `structuredContent` (which Claude Code shows its model)
 * and a text content saying the same (which OpenCode, Codex and Gemini CLI show).
 */
export function answerResult(answer: TeamToolAnswer<Record<string, unknown>>): CallToolResult {
  return {
    content: [{ type: 'text', text: answer.text }],
    structuredContent: answer.output,
  };
}

/**
 * A failure as an MCP tool error, never a protocol error or a crash: a Teamkit refusal
 * carries its code and message (`error CODE: message`, and the code in `_meta`), anything
 * else is `error INTERNAL` with the message, and the caller logs it.
 */
export function errorResult(error: unknown): CallToolResult {
  if (isTeamkitError(error)) {
    return {
      isError: true,
      content: [{ type: 'text', text: `error ${error.code}: ${error.message}` }],
      _meta: { 'teamkit/error': { code: error.code, kind: error.kind } },
    };
  }
  const message = errorMessage(error);
  return {
    isError: true,
    content: [{ type: 'text', text: `error INTERNAL: ${message}` }],
    _meta: { 'teamkit/error': { code: 'INTERNAL', kind: 'internal' } },
  };
}
