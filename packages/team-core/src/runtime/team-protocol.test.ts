import { describe, expect, it } from 'vitest';
import { MEMBER_CLIENT_VOCABULARY } from './member-client-vocabulary.js';
import {
  renderTeamProtocol,
  TEAM_PROTOCOL_OPERATIONS,
  type TeamProtocolInput,
  type TeamToolVocabulary,
} from './team-protocol.js';

const placeholders = Object.fromEntries(
  TEAM_PROTOCOL_OPERATIONS.map((operation) => [operation, `<${operation}>`]),
) as unknown as TeamToolVocabulary;

const input = (member: string, vocabulary: TeamToolVocabulary): TeamProtocolInput => ({
  runId: 'run-1',
  teamName: 'crew',
  member,
  role: member === 'lead' ? 'lead' : 'implementer',
  lead: 'lead',
  members: [
    { name: 'lead', role: 'lead' },
    { name: 'dev', role: 'implementer' },
  ],
  vocabulary,
});

describe('renderTeamProtocol', () => {
  it('puts every operation of the vocabulary where the protocol needs it, lead and member', () => {
    const lead = renderTeamProtocol(input('lead', placeholders));
    const dev = renderTeamProtocol(input('dev', placeholders));
    const used = new Set([...`${lead}\n${dev}`.matchAll(/<([a-zA-Z]+)>/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual([...TEAM_PROTOCOL_OPERATIONS].sort());
    expect(dev).toContain('Read your mail with <readMail>.');
    expect(dev).toContain(
      'approve the shutdown with <approveShutdown> (or reject it with <rejectShutdown>',
    );
    expect(lead).toContain('create tasks with <createTask>');
    expect(lead).toContain('shut the team down with <requestShutdown>');
    expect(lead).toContain('attach evidence to each criterion with <attachEvidence>');
    expect(dev).toContain('or `user` for the person who started the team');
    expect(dev).toContain('You are **dev** (implementer) in team "crew", run run-1.');
    expect(dev).toContain('- lead (lead) — lead');
  });

  it('says what to do without a "with" when the vocabulary leaves an optional operation out', () => {
    const required = {
      readMail: 'R',
      sendMessage: 'S',
      listReadyTasks: 'L',
      claimTask: 'C',
      completeTask: 'D',
      submitForReview: 'V',
      createTask: 'N',
    };
    const text = renderTeamProtocol(input('dev', required));
    expect(text).toContain('finish or hand off your task, then approve the shutdown.');
    expect(renderTeamProtocol(input('lead', required))).toContain(
      'review and approve finished work, attach evidence to each criterion (a task, a commit or a message), and shut the team down when the goal is met.',
    );
  });

  it('holds no adapter syntax of its own: no `team` commands, no tool names', () => {
    for (const member of ['lead', 'dev']) {
      const text = renderTeamProtocol(input(member, placeholders));
      expect(text).not.toMatch(/\bteam (inbox|send|task|ack|run|shutdown)\b/);
      expect(text).not.toMatch(/team_(?!message)/);
    }
  });

  it('words the default vocabulary after the member client’s own methods', () => {
    const text = renderTeamProtocol(input('dev', MEMBER_CLIENT_VOCABULARY));
    expect(text).toContain('`claimTask(id)`, then `startTask(id)`');
  });
});
