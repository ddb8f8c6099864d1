import {
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderMcpHostConfig } from '@teamkit/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { writeHostConfig } from './write-host-config.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('writeHostConfig', () => {
  it('keeps a symlinked configuration file a link and updates the file it names', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'teamkit-host-config-'));
    folders.push(folder);
    const target = path.join(folder, 'dotfiles-mcp.json');
    writeFileSync(target, JSON.stringify({ mcpServers: { other: { command: 'other' } } }));
    const link = path.join(folder, '.mcp.json');
    symlinkSync(target, link);

    const config = renderMcpHostConfig({ host: 'claude', command: ['teamkit-mcp'] });
    expect(await writeHostConfig(link, config)).toBe('updated');

    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const written = JSON.parse(readFileSync(target, 'utf8')) as { mcpServers: object };
    expect(Object.keys(written.mcpServers).sort()).toEqual(['other', 'teamkit']);
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });
});
