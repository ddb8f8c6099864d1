import { readFile } from 'node:fs/promises';

/**
 * `team --version`: prints the version of `@teamkit/team-cli` (from its package.json,
 * read only when asked), as text or, with `--json`, `{ "ok": true, "version" }`.
 */
export async function printVersion(json: boolean): Promise<number> {
  const text = await readFile(new URL('../package.json', import.meta.url), 'utf8');
  const { version } = JSON.parse(text) as { version: string };
  process.stdout.write(json ? `${JSON.stringify({ ok: true, version })}\n` : `${version}\n`);
  return 0;
}
