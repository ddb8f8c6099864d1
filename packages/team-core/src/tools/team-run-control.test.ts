import { describe, expect, it } from 'vitest';
import type { TeamLibrary } from '../registry/team-library.js';
import { TeamSpecSchema } from '../schema/index.js';
import { startableTeams } from './team-run-control.js';

const spec = (id: string, description?: string) =>
  TeamSpecSchema.parse({
    id,
    name: id,
    lead: 'boss',
    ...(description === undefined ? {} : { description }),
    members: ['boss', 'w1'].map((name) => ({ name, role: name, prompt: `You are ${name}.` })),
  });

describe('startableTeams', () => {
  it('lists the enabled teams with their lead, members and which is the default', () => {
    const library = {
      teams: [
        { id: 'alpha', enabled: true, spec: spec('alpha', 'Plans and builds.') },
        { id: 'beta', enabled: false, spec: spec('beta') },
        { id: 'gamma', enabled: true, spec: spec('gamma') },
      ],
      defaultLead: { teamId: 'gamma', member: 'boss', scope: 'global' },
    } as unknown as TeamLibrary;
    expect(startableTeams(library)).toEqual([
      {
        id: 'alpha',
        lead: 'boss',
        members: ['boss', 'w1'],
        description: 'Plans and builds.',
        isDefault: false,
      },
      { id: 'gamma', lead: 'boss', members: ['boss', 'w1'], isDefault: true },
    ]);
  });
});
