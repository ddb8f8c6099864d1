import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { loadTeamLibrary } from './team-library.js';
import { configJson, writeTree } from './test-support/registry-fixture.js';

const DOCS = fileURLToPath(new URL('../../../../docs/', import.meta.url));
// `<!-- team-example: <team>/<file> -->` on the line before a fenced block marks it as one
// file of a team package; the test writes every marked file into its team's folder.
const MARK = /^<!-- team-example: ([a-z0-9-]+)\/([A-Za-z0-9._-]+) -->$/;
const FENCE = /^```(\w*)$/;

interface Block {
  doc: string;
  line: number;
  lang: string;
  text: string;
  mark?: { team: string; file: string };
}

async function markdownFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) return markdownFiles(full);
      return Promise.resolve(entry.name.endsWith('.md') ? [full] : []);
    }),
  );
  return nested.flat().sort();
}

async function fencedBlocks(): Promise<Block[]> {
  const blocks: Block[] = [];
  for (const file of await markdownFiles(DOCS)) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    let mark: Block['mark'];
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index] ?? '';
      const marked = MARK.exec(line);
      if (marked !== null) {
        mark = { team: marked[1] as string, file: marked[2] as string };
        continue;
      }
      const fence = FENCE.exec(line);
      if (fence === null) {
        if (line.trim() !== '') mark = undefined;
        continue;
      }
      const start = index;
      const body: string[] = [];
      for (index += 1; index < lines.length && lines[index] !== '```'; index += 1) {
        body.push(lines[index] ?? '');
      }
      blocks.push({
        doc: path.relative(DOCS, file),
        line: start + 1,
        lang: fence[1] ?? '',
        text: `${body.join('\n')}\n`,
        ...(mark === undefined ? {} : { mark }),
      });
      mark = undefined;
    }
  }
  return blocks;
}

/** A block that looks like a team file: any YAML, or Markdown that opens with front matter. */
const looksLikeTeamFile = (block: Block) =>
  block.lang === 'yaml' || (block.lang === 'markdown' && block.text.startsWith('---'));

let root: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempFolder('teamkit-registry-'));
});
afterEach(async () => cleanup());

describe('the team examples in docs/', () => {
  it('are all marked, and each team loads as written with no warning or skip', async () => {
    const blocks = await fencedBlocks();
    const unmarked = blocks
      .filter((block) => looksLikeTeamFile(block) && block.mark === undefined)
      .map((block) => `${block.doc}:${block.line}`);
    expect(unmarked, 'team files in docs/ without a team-example mark').toEqual([]);

    const files: Record<string, string> = {};
    const teams = new Set<string>();
    for (const block of blocks) {
      if (block.mark === undefined) continue;
      const key = `teams/${block.mark.team}/${block.mark.file}`;
      expect(files[key], `${key} is given twice`).toBeUndefined();
      files[key] = block.text;
      teams.add(block.mark.team);
    }
    expect([...teams].sort()).toEqual(['mixed', 'research-team']);

    const home = path.join(root, 'home');
    await writeTree(home, {
      'config.json': configJson([...teams].map((team) => ({ path: `@teams/${team}` }))),
      ...files,
    });
    const library = await loadTeamLibrary({ home, env: {} });
    expect(library.skipped.map((team) => `${team.id}: ${team.reason}`)).toEqual([]);
    expect(library.warnings.map((warning) => warning.message)).toEqual([]);
    expect(library.teams.map((team) => team.id).sort()).toEqual([...teams].sort());
  });
});
