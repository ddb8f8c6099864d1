import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ConfigSourceSchema } from './config-source.js';
import { MessageSchema } from './message.js';
import { RunEventSchema } from './run-event.js';
import { RuntimeStateSchema } from './runtime-state.js';
import { TaskSchema } from './task.js';
import { TeamSpecSchema } from './team-spec.js';

const runId = '5f0c2a52-7f0e-4d1e-9a3b-2f1d3c4b5a69';
const messageId = '0b8f9a3e-3c1d-4e5f-8a7b-6c5d4e3f2a1b';

/** Parses, writes as JSON, reads back: the value must survive unchanged. */
function expectRoundTrip(schema: z.ZodType, input: unknown): unknown {
  const parsed = schema.parse(input);
  const reread = schema.parse(JSON.parse(JSON.stringify(parsed)));
  expect(reread).toEqual(parsed);
  return parsed;
}

function issuesOf(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

const message = {
  version: 1,
  messageId,
  runId,
  from: 'lead',
  to: 'writer-2',
  kind: 'message',
  body: 'Please review task 3.',
  summary: 'review',
  references: [{ path: 'src/a.ts', description: 'the change' }],
  timestamp: 1_700_000_000_000,
};

describe('MessageSchema', () => {
  it('round-trips a message', () => {
    expect(expectRoundTrip(MessageSchema, message)).toEqual(message);
  });

  it.each([
    ['version 2', { version: 2 }, 'version'],
    ['a non-UUID id', { messageId: '1' }, 'messageId'],
    ['an unknown kind', { kind: 'gossip' }, 'kind'],
    ['a sender that is not kebab-case', { from: 'Lead' }, 'from'],
    ['a recipient with a path in it', { to: '../lead' }, 'to'],
    ['a negative timestamp', { timestamp: -1 }, 'timestamp'],
    ['a long summary', { summary: 'x'.repeat(201) }, 'summary'],
  ])('rejects %s', (_, change, field) => {
    expect(issuesOf(MessageSchema, { ...message, ...change })).toContain(field);
  });
});

const task = {
  version: 1,
  id: '12',
  subject: 'Write the tests',
  description: 'All of them.',
  status: 'claimed',
  owner: 'writer',
  blocks: ['13'],
  blockedBy: ['1'],
  createdAt: 1,
  updatedAt: 2,
  claimedAt: 2,
};

describe('TaskSchema', () => {
  it('round-trips a task and defaults its dependency lists', () => {
    expect(expectRoundTrip(TaskSchema, task)).toEqual(task);
    const { blocks: _blocks, blockedBy: _blockedBy, ...bare } = task;
    expect(TaskSchema.parse(bare)).toMatchObject({ blocks: [], blockedBy: [] });
  });

  it.each([
    ['id 0', { id: '0' }, 'id'],
    ['an id that is a path', { id: '../1' }, 'id'],
    ['an unknown status', { status: 'done' }, 'status'],
    ['an empty subject', { subject: '' }, 'subject'],
    ['a blocker that is not a task id', { blockedBy: ['x'] }, 'blockedBy.0'],
    ['version 2', { version: 2 }, 'version'],
  ])('rejects %s', (_, change, field) => {
    expect(issuesOf(TaskSchema, { ...task, ...change })).toContain(field);
  });
});

const member = { name: 'lead', role: 'lead', isLead: true, status: 'running' };
const runtimeState = {
  version: 1,
  runId,
  teamName: 'review-team',
  teamSource: { scope: 'project', path: '.teamkit/teams/review-team' },
  hostId: 'cli',
  createdAt: 1,
  updatedAt: 2,
  status: 'active',
  members: [member, { name: 'writer', role: 'writer', isLead: false, status: 'idle' }],
  policy: {},
};

describe('RuntimeStateSchema', () => {
  it('round-trips run state and fills in its defaults', () => {
    const parsed = expectRoundTrip(RuntimeStateSchema, runtimeState) as z.infer<
      typeof RuntimeStateSchema
    >;
    expect(parsed.members[0]).toMatchObject({ pendingDeliveryIds: [], turns: 0 });
    expect(parsed.counters).toEqual({ turns: 0 });
    expect(parsed.policy.bounds.maxMembers).toBe(8);
    expect(parsed.shutdownRequests).toEqual([]);
  });

  it('reads a file of an earlier release that still counts messages in its state', () => {
    const parsed = RuntimeStateSchema.parse({
      ...runtimeState,
      counters: { messagesSent: 12, turns: 3 },
    });
    expect(parsed.counters).toEqual({ turns: 3 });
  });

  it.each([
    ['an unknown run status', { status: 'paused' }, 'status'],
    ['a run id that is not a UUID', { runId: 'run-1' }, 'runId'],
    ['an unknown field', { extra: true }, ''],
    ['a missing policy', { policy: undefined }, 'policy'],
    ['version 2', { version: 2 }, 'version'],
    [
      'an unknown member status',
      { members: [{ ...member, status: 'asleep' }] },
      'members.0.status',
    ],
  ])('rejects %s', (_, change, field) => {
    expect(issuesOf(RuntimeStateSchema, { ...runtimeState, ...change })).toContain(field);
  });
});

const teamSpec = {
  id: 'review-team',
  name: 'Review team',
  lead: 'lead',
  members: [
    { name: 'lead', role: 'lead', prompt: 'Lead the team.' },
    { name: 'writer', role: 'writer', prompt: 'Write.', worktree: true },
  ],
};

describe('TeamSpecSchema', () => {
  it('round-trips a team and fills in its defaults', () => {
    const parsed = expectRoundTrip(TeamSpecSchema, teamSpec) as z.infer<typeof TeamSpecSchema>;
    expect(parsed).toMatchObject({ version: 1, description: '' });
    expect(parsed.members[0]).toMatchObject({ worktree: false, tmux: true });
    expect(parsed.policy.broadcast).toBe('lead-only');
  });

  it('rejects a lead that is not one of the members', () => {
    expect(issuesOf(TeamSpecSchema, { ...teamSpec, lead: 'boss' })).toEqual(['lead']);
  });

  it('rejects duplicate member names', () => {
    const members = [...teamSpec.members, { name: 'writer', role: 'writer', prompt: 'Again.' }];
    expect(issuesOf(TeamSpecSchema, { ...teamSpec, members })).toEqual(['members.2.name']);
  });

  it('rejects more members than the policy allows', () => {
    const policy = { bounds: { maxMembers: 1 } };
    expect(issuesOf(TeamSpecSchema, { ...teamSpec, policy })).toEqual(['members']);
  });

  it.each([
    ['no members', { members: [] }, 'members'],
    ['a team id that is not kebab-case', { id: 'Review_Team' }, 'id'],
    ['an unknown field', { leader: 'lead' }, ''],
  ])('rejects %s', (_, change, field) => {
    expect(issuesOf(TeamSpecSchema, { ...teamSpec, ...change })).toContain(field);
  });
});

describe('ConfigSourceSchema', () => {
  it('round-trips a config source and defaults an empty one', () => {
    const source = {
      $schema: 'https://example.invalid/config.json',
      version: 1,
      teams: [
        { id: 'review-team', enabled: true, priority: 0 },
        { path: '@teams/mine', enabled: false, priority: 5 },
      ],
      settings: { theme: 'dark' },
    };
    expect(expectRoundTrip(ConfigSourceSchema, source)).toEqual(source);
    expect(ConfigSourceSchema.parse({})).toEqual({ version: 1, teams: [], settings: {} });
  });

  it.each([
    ['both id and path', { id: 'review-team', path: '@teams/x' }],
    ['neither id nor path', { enabled: true }],
    ['an id that is not kebab-case', { id: 'Review' }],
    ['an empty path', { path: '' }],
  ])('rejects a team entry with %s', (_, entry) => {
    const issues = issuesOf(ConfigSourceSchema, { teams: [entry] });
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.every((issue) => issue.startsWith('teams.0'))).toBe(true);
  });

  it('rejects version 2 and unknown fields', () => {
    expect(issuesOf(ConfigSourceSchema, { version: 2 })).toContain('version');
    expect(issuesOf(ConfigSourceSchema, { team: [] })).toContain('');
  });
});

describe('RunEventSchema', () => {
  const event = {
    version: 1,
    at: 5,
    runId,
    actor: 'lead',
    type: 'task.claimed',
    ids: ['3'],
    data: { from: 'pending' },
  };

  it('round-trips an event', () => {
    expect(expectRoundTrip(RunEventSchema, event)).toEqual(event);
  });

  it.each([
    ['an empty actor', { actor: '' }, 'actor'],
    ['an empty type', { type: '' }, 'type'],
    ['a run id that is not a UUID', { runId: 'x' }, 'runId'],
    ['a fractional time', { at: 1.5 }, 'at'],
    ['version 2', { version: 2 }, 'version'],
  ])('rejects %s', (_, change, field) => {
    expect(issuesOf(RunEventSchema, { ...event, ...change })).toContain(field);
  });
});
