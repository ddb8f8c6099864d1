import { describe, expect, it } from 'vitest';
import { isNotAvailable } from '../not-available.js';
import { startFigureNatsServer } from './store-targets.js';

describe('the NATS side of the store figures', () => {
  it('is reported as not available, not failed, where nats-server is missing', async () => {
    // Also under TEAMKIT_TEST_REQUIRE_PROGRAMS=1: the bench skips, only tests fail.
    const server = await startFigureNatsServer({
      PATH: '/nonexistent',
      NATS_SERVER_BIN: '/nonexistent/nats-server',
      TEAMKIT_TEST_REQUIRE_PROGRAMS: '1',
    });
    expect(isNotAvailable(server)).toBe(true);
    expect(isNotAvailable(server) && server.reason).toMatch(/nats-server is not installed/);
  });
});
