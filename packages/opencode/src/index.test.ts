import { describe, expect, it } from 'vitest';

describe('the module a loader sees', () => {
  it('exports only the plugin module, since a loader calls every export as a plugin', async () => {
    const module = await import('./index.js');
    expect(Object.keys(module)).toEqual(['default']);
    expect(module.default.id).toBe('teamkit');
    expect(typeof module.default.server).toBe('function');
  });
});
