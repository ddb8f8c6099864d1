import { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import { AgentPresetNameSchema } from '../schema/team-spec.js';
import { parseYamlSafely } from './parse-yaml-safely.js';

const ToolsSchema = z.union([
  z.record(z.string().min(1), z.boolean()),
  z.array(z.string().min(1)).transform((names) => Object.fromEntries(names.map((n) => [n, true]))),
]);

/** Front matter keys an agent file may set; they override the manifest's member fields. */
export const AgentFrontMatterSchema = z.object({
  description: z.string().max(2_000).optional(),
  model: z.string().min(1).max(200).optional(),
  /** The agent preset that runs the member (`claude`, `codex`, …). */
  agent: AgentPresetNameSchema.optional(),
  mode: z.enum(['primary', 'subagent', 'all']).optional(),
  tools: ToolsSchema.optional(),
  color: z.string().min(1).max(32).optional(),
});

/** A parsed `<member>.agent.md`: its front matter, the prompt (the body) and ignored keys. */
export interface AgentFile {
  frontMatter: z.infer<typeof AgentFrontMatterSchema>;
  prompt: string;
  ignoredKeys: string[];
}

const FENCE = /^---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * Parses an agent file: optional YAML front matter between `---` lines, then the body,
 * which is the member's prompt. Keys other than description/model/agent/mode/tools/color are
 * returned in `ignoredKeys` (agent files are often shared with other tools).
 * Throws `INVALID_TEAM` for unsafe or mistyped front matter.
 */
export function parseAgentFile(text: string, where: string): AgentFile {
  let body = text;
  let raw: unknown = {};
  const opening = FENCE.exec(text);
  if (opening !== null) {
    const rest = text.slice(opening[0].length);
    const closing = CLOSING.exec(rest);
    if (closing === null) {
      throw new TeamkitError('INVALID_TEAM', `${where}: the front matter has no closing "---".`, {
        details: { path: where },
      });
    }
    raw = parseYamlSafely(rest.slice(0, closing.index), `${where} (front matter)`) ?? {};
    body = rest.slice(closing.index + closing[0].length);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new TeamkitError('INVALID_TEAM', `${where}: the front matter must be a mapping.`, {
      details: { path: where },
    });
  }
  const parsed = AgentFrontMatterSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TeamkitError(
      'INVALID_TEAM',
      `${where}: front matter ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}.`,
      { details: { path: where } },
    );
  }
  const known = new Set(Object.keys(AgentFrontMatterSchema.shape));
  return {
    frontMatter: parsed.data,
    prompt: body.trim(),
    ignoredKeys: Object.keys(raw).filter((key) => !known.has(key)),
  };
}
