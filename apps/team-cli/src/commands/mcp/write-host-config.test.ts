import { lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderMcpHostConfig } from '@teamkit/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempHome } from '../../test-support/run-cli.js';
import { writeHostConfig } from './write-host-config.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe('writeHostConfig', () => {
  it('keeps a symlinked configuration file a link and updates the file it names', async () => {
    const { home: folder, cleanup } = await createTempHome();
    cleanups.push(cleanup);
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
