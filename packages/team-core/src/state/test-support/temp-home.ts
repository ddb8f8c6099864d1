import { type RunBounds, type TeamSpec, TeamSpecSchema } from '../../schema/team-spec.js';

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
