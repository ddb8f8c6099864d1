import { describe, expect, it } from 'vitest';
import { isTransient, toStoreError } from './nats-errors.js';

const context = {
  what: 'connect to',
  key: 'the NATS store teamkit',
  servers: 'nats://10.0.0.1:4222',
  timeoutMs: 15_000,
};

function socketError(code: string): Error {
  // What Node's socket reports and the NATS client passes on unchanged.
  return Object.assign(new Error(`connect ${code} 10.0.0.1:4222`), { code, syscall: 'connect' });
}

describe('NATS errors', () => {
  it.each(['EHOSTUNREACH', 'ENETUNREACH', 'ECONNREFUSED', 'ETIMEDOUT'])(
    'maps a network that cannot reach the server (%s) to STORE_UNAVAILABLE',
    (code) => {
      expect(isTransient(socketError(code))).toBe(true);
      expect(toStoreError(socketError(code), context).code).toBe('STORE_UNAVAILABLE');
      const wrapped = new Error('could not connect', { cause: socketError(code) });
      expect(toStoreError(wrapped, context).code).toBe('STORE_UNAVAILABLE');
    },
  );

  it('keeps other failures IO_ERROR', () => {
    const denied = Object.assign(new Error('open EACCES'), { code: 'EACCES' });
    expect(isTransient(denied)).toBe(false);
    expect(toStoreError(denied, context).code).toBe('IO_ERROR');
    expect(toStoreError(new Error('bad stream config'), context).code).toBe('IO_ERROR');
  });
});
