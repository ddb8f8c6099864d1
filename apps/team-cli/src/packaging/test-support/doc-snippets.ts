/** A fenced block of a Markdown page that a reader runs: a shell block or a TypeScript file. */
export interface DocSnippet {
  lang: 'sh' | 'ts';
  code: string;
  /** The 1-based line of the opening fence. */
  line: number;
}

const RUNNABLE = new Set(['sh', 'bash', 'ts']);

/** The `sh`/`bash` and `ts` fenced blocks of a Markdown page, in order. */
export function extractSnippets(markdown: string): DocSnippet[] {
  const snippets: DocSnippet[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^```(\w*)\s*$/.exec(lines[index] ?? '');
    if (open === null) continue;
    const start = index;
    const body: string[] = [];
    for (index += 1; index < lines.length && !/^```\s*$/.test(lines[index] ?? ''); index += 1) {
      body.push(lines[index] ?? '');
    }
    const lang = open[1] ?? '';
    if (RUNNABLE.has(lang)) {
      snippets.push({ lang: lang === 'ts' ? 'ts' : 'sh', code: body.join('\n'), line: start + 1 });
    }
  }
  return snippets;
}

/**
 * One bash script that runs the snippets in order, as a reader types them into one shell:
 * shell blocks verbatim, and each TypeScript block saved, in the current folder, as the
 * file its first line names (`// status.mts`).
 */
export function scriptOf(snippets: readonly DocSnippet[]): string {
  const parts = ['set -euo pipefail'];
  for (const snippet of snippets) {
    parts.push(`echo ${JSON.stringify(`### snippet at line ${snippet.line}`)} >&2`);
    if (snippet.lang === 'sh') {
      parts.push(snippet.code);
      continue;
    }
    const file = /^\/\/ ([\w.-]+\.m?ts)\s*$/.exec(snippet.code.split('\n')[0] ?? '')?.[1];
    if (file === undefined) {
      throw new Error(`the ts block at line ${snippet.line} must start with // <file>.ts`);
    }
    parts.push(`cat > ${file} <<'TEAMKIT_SNIPPET_EOF'\n${snippet.code}\nTEAMKIT_SNIPPET_EOF`);
  }
  return `${parts.join('\n')}\n`;
}
