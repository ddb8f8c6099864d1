import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { McpHostConfig, McpHostName } from '@teamkit/mcp';
import { errorMessage } from '@teamkit/team-core/errors';
import { writeFileAtomically } from '@teamkit/team-core/storage';

/** Where each host reads a project's (Codex: the user's) MCP servers. */
export function defaultConfigFile(host: McpHostName, cwd: string, env: NodeJS.ProcessEnv): string {
  switch (host) {
    case 'claude':
      return path.join(cwd, '.mcp.json');
    case 'gemini':
      return path.join(cwd, '.gemini', 'settings.json');
    case 'opencode':
      return path.join(cwd, 'opencode.json');
    case 'codex':
      return path.join(env.CODEX_HOME || path.join(os.homedir(), '.codex'), 'config.toml');
  }
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function replaceFile(file: string, text: string): Promise<void> {
  // The user's own configuration: a symlinked dotfile keeps its link, its target is replaced.
  await writeFileAtomically(file, text, { mode: 0o600 });
}

function isTableHeader(line: string): boolean {
  return /^\s*\[/.test(line);
}

/** The Codex file with the server's table replaced (or appended), every other line kept. */
function mergeToml(existing: string, config: McpHostConfig): string {
  const name = config.entry.path[1] ?? 'teamkit';
  const headers = [`[mcp_servers.${name}]`, `[mcp_servers.${JSON.stringify(name)}]`];
  const lines = existing.split('\n');
  const start = lines.findIndex((line) => headers.includes(line.trim()));
  const snippet = config.text.trimEnd().split('\n');
  if (start === -1) {
    const base = existing.trimEnd();
    return `${base === '' ? '' : `${base}\n\n`}${snippet.join('\n')}\n`;
  }
  let end = start + 1;
  while (end < lines.length && !isTableHeader(lines[end] as string)) end += 1;
  return `${[...lines.slice(0, start), ...snippet, '', ...lines.slice(end)].join('\n').trimEnd()}\n`;
}

/** The object at `path` inside `document`, made (replacing anything that is not an object) where missing. */
function objectAt(
  document: Record<string, unknown>,
  path: readonly string[],
): Record<string, unknown> {
  let parent = document;
  for (const key of path) {
    const next = parent[key];
    parent[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {};
    parent = parent[key] as Record<string, unknown>;
  }
  return parent;
}

/**
 * Merges the server's entry into a host's configuration file: a JSON file gets its
 * `mcpServers.<name>` (or `mcp.<name>`) entry set and keeps everything else; Codex's
 * `config.toml` gets its `[mcp_servers.<name>]` table replaced or appended. A JSON file that
 * does not parse is refused (`INVALID_CONFIG`) and left as it was. Writes by temp file and rename.
 */
export async function writeHostConfig(
  file: string,
  config: McpHostConfig,
): Promise<'created' | 'updated'> {
  const existing = await readIfPresent(file);
  if (config.format === 'toml') {
    await replaceFile(file, mergeToml(existing ?? '', config));
    return existing === undefined ? 'created' : 'updated';
  }
  let document: Record<string, unknown> = {};
  if (existing !== undefined && existing.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(existing);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new Error('not a JSON object');
      }
      document = parsed as Record<string, unknown>;
    } catch (error) {
      const { TeamkitError } = await import('@teamkit/team-core');
      throw new TeamkitError(
        'INVALID_CONFIG',
        `${file} is not a JSON object (${errorMessage(error)}); add the server by hand or fix the file first.`,
        { details: { file } },
      );
    }
  }
  for (const list of config.lists) {
    const owner = objectAt(document, list.path.slice(0, -1));
    const key = list.path.at(-1) as string;
    const current = Array.isArray(owner[key]) ? (owner[key] as unknown[]) : [];
    owner[key] = [...current, ...list.values.filter((value) => !current.includes(value))];
  }
  let parent = document;
  const keys = [...config.entry.path];
  const last = keys.pop() as string;
  for (const key of keys) {
    const next = parent[key];
    parent[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {};
    parent = parent[key] as Record<string, unknown>;
  }
  parent[last] = config.entry.value;
  await replaceFile(file, `${JSON.stringify(document, null, 2)}\n`);
  return existing === undefined ? 'created' : 'updated';
}
