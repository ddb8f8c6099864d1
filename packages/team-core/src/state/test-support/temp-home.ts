import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type RunBounds, type TeamSpec, TeamSpecSchema } from '../../schema/team-spec.js';

/** A fresh Teamkit home in the OS temp folder and a function that removes it. */
export async function makeTempHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-state-'));
  return { home, cleanup: () => rm(home, { recursive: true, force: true }) };
}

/** A team with a lead and `workers` members, with the given bounds. */
export function makeSpec(workers: string[], bounds: Partial<RunBounds> = {}): TeamSpec {
  return TeamSpecSchema.parse({
    id: 'demo-team',
    name: 'Demo team',
    lead: 'lead',
    members: ['lead', ...workers].map((name) => ({ name, role: name, prompt: `You are ${name}.` })),
    policy: { bounds },
  });
}

/** A clock tests move by hand. */
export function makeClock(start = 1_700_000_000_000): {
  now: () => number;
  advance: (ms: number) => void;
} {
  let current = start;
  return { now: () => current, advance: (ms) => (current += ms) };
}
