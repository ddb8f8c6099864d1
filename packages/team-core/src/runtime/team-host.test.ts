import { describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { assertTeamHost, requireHostCapability, type TeamHostV1 } from './team-host.js';

const minimalHost: TeamHostV1 = {
  specificationVersion: 'team-host-v1',
  hostId: 'minimal',
  spawnMember: async () => ({ sessionId: 's1' }),
  deliver: async () => 'delivered',
  isAlive: async () => true,
};

describe('host contract', () => {
  it('refuses a missing optional capability with HOST_CAPABILITY_UNSUPPORTED', () => {
    for (const capability of ['interrupt', 'stopMember', 'attachCommand'] as const) {
      let caught: unknown;
      try {
        requireHostCapability(minimalHost, capability);
      } catch (error) {
        caught = error;
      }
      expect(isTeamkitError(caught, 'HOST_CAPABILITY_UNSUPPORTED')).toBe(true);
      expect((caught as Error).message).toContain(capability);
    }
  });

  it('returns a present capability bound to its host', async () => {
    const host = {
      ...minimalHost,
      hostId: 'bound',
      async interrupt(this: TeamHostV1) {
        return this.hostId === 'bound' ? ('interrupted' as const) : ('unknown' as const);
      },
    };
    await expect(requireHostCapability(host, 'interrupt')('s1')).resolves.toBe('interrupted');
  });

  it('accepts a v1 host and refuses another version or a missing method', () => {
    expect(assertTeamHost(minimalHost)).toBe(minimalHost);
    expect(() =>
      assertTeamHost({ ...minimalHost, specificationVersion: 'team-host-v2' as 'team-host-v1' }),
    ).toThrow(/team-host-v2/);
    const { deliver: _deliver, ...withoutDeliver } = minimalHost;
    expect(() => assertTeamHost(withoutDeliver as TeamHostV1)).toThrow(/deliver/);
  });
});
