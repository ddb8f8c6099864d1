import { describe, expect, it } from 'vitest';
import { findNatsServer } from './find-nats-server.js';

describe('findNatsServer', () => {
  it('says why when the program is missing, and throws instead when programs are required', () => {
    const env = { PATH: '/nonexistent', NATS_SERVER_BIN: '/nonexistent/nats-server' };
    const missing = findNatsServer({ env });
    expect(missing).toEqual({ found: false, reason: expect.stringContaining('apt-get install') });
    expect(() => findNatsServer({ env: { ...env, TEAMKIT_TEST_REQUIRE_PROGRAMS: '1' } })).toThrow(
      /TEAMKIT_TEST_REQUIRE_PROGRAMS=1 but nats-server is not installed/,
    );
  });

  it('refuses a program that does not answer --version like nats-server', () => {
    expect(findNatsServer({ env: { NATS_SERVER_BIN: '/bin/false' } }).found).toBe(false);
  });
});
