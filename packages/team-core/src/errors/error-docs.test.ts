import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { TEAMKIT_ERROR_CODES } from './error-codes.js';

describe('docs/errors.md', () => {
  it('documents every error code with its kind and meaning, and no code that does not exist', async () => {
    const text = await readFile(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');
    // Table cells may be padded by the formatter: split each row and trim its cells.
    const rows = new Map(
      text
        .split('\n')
        .map((line) => line.split('|').map((cell) => cell.trim()))
        .filter((cells) => /^`[A-Z_]+`$/.test(cells[1] ?? ''))
        .map((cells) => [String(cells[1]).slice(1, -1), [cells[2], cells[3]]]),
    );
    for (const [code, { kind, description }] of Object.entries(TEAMKIT_ERROR_CODES)) {
      expect(rows.get(code), code).toEqual([kind, description]);
    }
    expect([...rows.keys()].sort()).toEqual(Object.keys(TEAMKIT_ERROR_CODES).sort());
  });
});
