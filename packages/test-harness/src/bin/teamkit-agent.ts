#!/usr/bin/env node

import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadSettings, markWaiting } from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';
import { createFileStore, type TeamkitStore } from '@teamkit/team-core/storage';
import {
  type AgentEnvironment,
  createAgentActions,
  inboxPollingEnvironment,
  playLead,
  playWorker,
} from '../scripted-agents/index.js';

/**
 * `teamkit-agent`: a scripted team member that runs as its own process, the way a real
 * agent CLI would. It reads `TEAMKIT_HOME`, `TEAMKIT_RUN` and `TEAMKIT_MEMBER`, reads and
 * acknowledges its own inbox, and plays the lead or a worker of the coding team.
 *
 *   teamkit-agent [--lead | --role <role>] [--commits | --no-commits] [--user-reviews]
 *                 [--script <file.json>]
 *
 * A script file is `{ "behaviour": "lead" | "worker", "role"?: string, "commits"?: boolean,
 * "reviews"?: "lead" | "user" }`. With `--user-reviews` the lead leaves every review to
 * the user (`team task approve`, the web UI) and shuts the team down once all are approved.
 * Without flags the behaviour and role come from the run: the lead plays the lead, every
 * other member a worker of its role that commits when it has its own worktree.
 */
interface AgentScriptFile {
  behaviour?: 'lead' | 'worker';
  role?: string;
  commits?: boolean;
  timeoutMs?: number;
  reviews?: 'lead' | 'user';
}

const log = (text: string) => process.stdout.write(`[${new Date().toISOString()}] ${text}\n`);

/** Polls the inbox and records a waiting marker while it blocks. */
function waitingEnvironment(
  env: NodeJS.ProcessEnv,
  store: TeamkitStore,
  signal: AbortSignal,
): AgentEnvironment {
  const inner = inboxPollingEnvironment({ env, cwd: process.cwd(), store, pollMs: 150, signal });
  return {
    ...inner,
    async nextMessages(timeoutMs) {
      // The waiting marker of docs/cli.md: a supervisor counts a member waiting for mail as idle.
      const clear = await markWaiting(env.TEAMKIT_RUN ?? '', env.TEAMKIT_MEMBER ?? '', {
        handoff: false,
        store,
      });
      try {
        const messages = await inner.nextMessages(timeoutMs);
        for (const message of messages)
          log(
            `mail from ${message.from} (${message.kind}): ${message.summary ?? message.body.slice(0, 60)}`,
          );
        return messages;
      } finally {
        await clear();
      }
    },
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      lead: { type: 'boolean' },
      role: { type: 'string' },
      commits: { type: 'boolean' },
      'no-commits': { type: 'boolean' },
      'user-reviews': { type: 'boolean' },
      script: { type: 'string' },
      'timeout-ms': { type: 'string' },
    },
    allowPositionals: false,
  });
  const script: AgentScriptFile =
    values.script === undefined
      ? {}
      : (JSON.parse(await readFile(values.script, 'utf8')) as AgentScriptFile);
  const controller = new AbortController();
  const stop = (signal: string) => {
    log(`${signal}: exiting`);
    controller.abort(new Error(signal));
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  // This scripted agent reaches its run through the home folder; a run kept in a shared
  // store (TEAMKIT_STORE, the store.url setting) is out of its reach: say so plainly.
  const home = process.env.TEAMKIT_HOME;
  const selected =
    process.env.TEAMKIT_STORE ||
    (home ? (await loadSettings({ home, env: process.env })).values['store.url'] : 'file');
  if (selected !== 'file') {
    process.stderr.write(
      'teamkit-agent works with runs kept in the home folder only; this run lives in a shared store (TEAMKIT_STORE or the store.url setting). Start its members with an agent CLI (--agent claude|codex|opencode|gemini, or --agent-cmd).\n',
    );
    return 2;
  }
  // Its runs are kept in the home folder (checked above): the file store of the home.
  const store = createFileStore({ root: process.env.TEAMKIT_HOME ?? '' });
  const actions = createAgentActions(waitingEnvironment(process.env, store, controller.signal));
  const state = await actions.client.state();
  const me = state.members.find((member) => member.name === actions.name);
  if (me === undefined) throw new Error(`${actions.name} is not a member of run ${state.runId}`);
  const behaviour = values.lead
    ? 'lead'
    : values.role !== undefined
      ? 'worker'
      : (script.behaviour ?? (me.isLead ? 'lead' : 'worker'));
  const role = values.role ?? script.role ?? me.role;
  const commits = values['no-commits']
    ? false
    : (values.commits ?? script.commits ?? me.worktreePath !== undefined);
  const timeoutRaw = values['timeout-ms'] ?? script.timeoutMs;
  const timeoutMs = timeoutRaw === undefined ? undefined : Number(timeoutRaw);
  log(
    `${actions.name} starts as ${behaviour === 'lead' ? 'the lead' : `a ${role}`} in ${process.cwd()}`,
  );
  if (behaviour === 'lead') {
    const reviews = values['user-reviews'] ? 'user' : (script.reviews ?? 'lead');
    const outcome = await playLead(actions, {
      reviews,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    log(
      `plan done: approved ${outcome.approved.join(', ')}; changes requested on ${outcome.changesRequested.join(', ') || '-'}; shut down ${outcome.shutdownApprovedBy.join(', ')}`,
    );
  } else {
    const outcome = await playWorker(actions, {
      role,
      commits,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    log(`shutdown approved after tasks ${outcome.done.join(', ') || '-'}`);
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log(`failed: ${errorMessage(error)}`);
    process.exitCode = 1;
  },
);
