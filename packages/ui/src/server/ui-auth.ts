import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The cookie that carries a signed-in browser's session. */
export const SESSION_COOKIE = 'teamkit_ui';

/** Who may use the UI server: one-time login tokens and the sessions they opened. */
export interface UiAuth {
  /** A fresh one-time token for the login URL. */
  issueLoginToken(): string;
  /** Spends a login token; returns the new session's secret, or `undefined` if it was not valid. */
  redeem(token: string): string | undefined;
  /** True when the request carries the cookie of a live session. */
  hasSession(request: IncomingMessage): boolean;
  /** The `Set-Cookie` value for a session secret. */
  sessionCookie(secret: string): string;
}

function secret(): string {
  return randomBytes(32).toString('base64url');
}

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The value of one cookie in a request's `Cookie` header. */
export function readCookie(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/**
 * Creates the token store of one server. Login tokens work once (the URL may sit in a
 * shell's scrollback or a browser's history); the session they open lives in an
 * HttpOnly, SameSite=Strict cookie the page's scripts cannot read.
 */
export function createUiAuth(): UiAuth {
  const tokens = new Set<string>();
  const sessions: string[] = [];
  return {
    issueLoginToken() {
      const token = secret();
      tokens.add(token);
      return token;
    },
    redeem(token) {
      for (const candidate of tokens) {
        if (!equal(candidate, token)) continue;
        tokens.delete(candidate);
        const session = secret();
        sessions.push(session);
        return session;
      }
      return undefined;
    },
    hasSession(request) {
      const value = readCookie(request, SESSION_COOKIE);
      return value !== undefined && sessions.some((session) => equal(session, value));
    },
    sessionCookie(value) {
      return `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/`;
    },
  };
}

/**
 * The Host values the server answers to: its own address and port, by IP or as
 * `localhost`. Anything else may be a DNS-rebinding page and is refused.
 */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** True when a request's `Origin` is the server itself (required on every action). */
export function isOwnOrigin(request: IncomingMessage, port: number): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  return allowedHosts(port).some((host) => origin === `http://${host}`);
}
