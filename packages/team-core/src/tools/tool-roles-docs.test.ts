import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { TEAM_TOOLS } from './team-tools.js';

const ROLES = ['member', 'lead', 'user', 'observer'] as const;

describe('docs/architecture.md "Who may call what"', () => {
  it('lists every tool with exactly the roles its definition has, and no other tool', async () => {
    const text = await readFile(
      new URL('../../../../docs/architecture.md', import.meta.url),
      'utf8',
    );
    // Table cells may be padded by the formatter: split each row and trim its cells.
    const rows = new Map(
      text
        .split('\n')
        .map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()))
        .filter((cells) => /^`[a-z_]+`$/.test(cells[1] ?? '') && cells.length >= 7)
        .map((cells) => [
          String(cells[1]).slice(1, -1),
          ROLES.filter((_, index) => cells[index + 2] === 'yes'),
        ]),
    );
    for (const tool of TEAM_TOOLS) {
      expect(rows.get(tool.name), tool.name).toEqual(
        ROLES.filter((role) => tool.roles.includes(role)),
      );
    }
    expect([...rows.keys()].sort()).toEqual(TEAM_TOOLS.map((tool) => tool.name).sort());
  });
});
