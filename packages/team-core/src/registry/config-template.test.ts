import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { readConfigTemplate } from './config-source-file.js';

// An installation whose templates folder lost its config template.
const emptyTemplates = vi.hoisted(() => ({ folder: '' }));
vi.mock('./templates-folder.js', () => ({ templatesFolder: () => emptyTemplates.folder }));

describe('the packaged config template', () => {
  it('is a typed IO_ERROR naming the file when the installation lacks it', async () => {
    emptyTemplates.folder = mkdtempSync(path.join(os.tmpdir(), 'teamkit-templates-'));
    const error = await readConfigTemplate().catch((caught: unknown) => caught);
    expect(isTeamkitError(error, 'IO_ERROR'), String(error)).toBe(true);
    expect((error as Error).message).toContain('config.json');
  });
});
