import type { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import type { TeamTool, TeamToolContext } from './team-tool.js';
import { assertMayCallTool } from './tool-access.js';

/** A tool's answer: the structured result and the same said as text. */
export interface TeamToolAnswer<Output> {
  output: Output;
  text: string;
}

/**
 * Parses the arguments against the tool's input schema (`INVALID_INPUT` naming the fields,
 * before anything is read or written), checks the caller's role, and runs the handler.
 * Every refusal is a `TeamkitError`; anything else that escapes is a bug or a host failure.
 */
export async function runTeamTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  tool: TeamTool<Input, Output>,
  args: unknown,
  context: TeamToolContext,
): Promise<TeamToolAnswer<z.infer<Output>>> {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const issues = describeIssues(parsed.error);
    throw new TeamkitError(
      'INVALID_INPUT',
      `${context.toolName(tool.name)} got bad arguments: ${issues.join('; ')}.`,
      { details: { tool: tool.name, issues } },
    );
  }
  const input = parsed.data as z.infer<Input>;
  assertMayCallTool(tool, context.caller, tool.operation(input), context.toolName);
  if (tool.needsRunControl === true && context.runs === undefined) {
    throw new TeamkitError(
      'HOST_CAPABILITY_UNSUPPORTED',
      `${context.toolName(tool.name)} needs a host that starts and stops members; this one cannot.`,
      { details: { tool: tool.name } },
    );
  }
  const output = await tool.handler(input, context);
  return { output, text: tool.text(output, context.toolName) };
}
