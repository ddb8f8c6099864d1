import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { TEAMKIT_ERROR_CODES } from './error-codes.js';

describe('docs/errors.md', () => {
  it('documents every error code with its kind and meaning, and no code that does not exist', async () => {
    const text = await readFile(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');
    const rows = new Map(
      [...text.matchAll(/^\| `([A-Z_]+)` \| (\w+) \| (.+) \|$/gm)].map((match) => [
        match[1],
        [match[2], match[3]],
      ]),
    );
    for (const [code, { kind, description }] of Object.entries(TEAMKIT_ERROR_CODES)) {
      expect(rows.get(code), code).toEqual([kind, description]);
    }
    expect([...rows.keys()].sort()).toEqual(Object.keys(TEAMKIT_ERROR_CODES).sort());
  });
});
