import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractSnippets, scriptOf } from './doc-snippets.js';

const page = [
  '# Page',
  '```sh',
  'GREETING=hello',
  '```',
  '```json',
  '{ "not": "run" }',
  '```',
  '```ts',
  '// hello.mts',
  'console.log(1);',
  '```',
  '```sh',
  'echo "$GREETING $(head -n 1 hello.mts)"',
  '```',
].join('\n');

describe('the runnable snippets of a page', () => {
  it('keeps sh and ts blocks in order, with their lines', () => {
    expect(extractSnippets(page)).toEqual([
      { lang: 'sh', code: 'GREETING=hello', line: 2 },
      { lang: 'ts', code: '// hello.mts\nconsole.log(1);', line: 8 },
      { lang: 'sh', code: 'echo "$GREETING $(head -n 1 hello.mts)"', line: 12 },
    ]);
  });

  it('runs them as one shell, saving each ts block as the file it names', () => {
    const folder = mkdtempSync(join(tmpdir(), 'teamkit-snippets-'));
    try {
      const result = spawnSync('bash', ['-c', scriptOf(extractSnippets(page))], {
        cwd: folder,
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toBe('hello // hello.mts\n');
      expect(readFileSync(join(folder, 'hello.mts'), 'utf8')).toBe(
        '// hello.mts\nconsole.log(1);\n',
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('stops at the first failing command and refuses a ts block without a file name', () => {
    const failing = extractSnippets('```sh\nfalse\necho after\n```\n');
    expect(spawnSync('bash', ['-c', scriptOf(failing)], { encoding: 'utf8' }).stdout).toBe('');
    expect(() => scriptOf(extractSnippets('```ts\nconsole.log(1);\n```\n'))).toThrow(/\/\/ <file>/);
  });
});
