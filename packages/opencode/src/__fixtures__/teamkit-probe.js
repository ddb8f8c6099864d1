// A minimal OpenCode plugin the real-host test copies into a temporary project's
// `.opencode/plugin/` folder. It records what the host gives it as JSON lines in the
// folder named by TEAMKIT_PROBE_OUT, so the test can check the host's side of the contract.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const outDir = process.env.TEAMKIT_PROBE_OUT;

function record(file, value) {
  if (outDir) appendFileSync(join(outDir, file), `${JSON.stringify(value)}\n`);
}

async function server(input) {
  record('init.jsonl', {
    serverUrl: String(input.serverUrl),
    directory: input.directory,
    worktree: input.worktree,
  });
  return {
    config: async (config) => {
      config.agent ??= {};
      config.agent['probe-agent'] ??= {
        description: 'Teamkit probe agent',
        mode: 'primary',
        prompt: 'You are the Teamkit probe agent.',
      };
    },
    event: async ({ event }) => {
      record('events.jsonl', { type: event.type, sessionID: event.properties?.sessionID });
    },
    tool: {
      probe_echo: {
        description: 'Echo the arguments back; used by the Teamkit real-host test.',
        args: {},
        async execute(args, context) {
          let child;
          try {
            const created = await input.client.session.create({
              body: { parentID: context.sessionID, title: 'child' },
            });
            const fetched = await input.client.session.get({ path: { id: created.data?.id } });
            child = {
              id: created.data?.id,
              parentID: created.data?.parentID,
              fetchedId: fetched.data?.id,
              error: created.error ?? fetched.error,
            };
          } catch (error) {
            child = { thrown: String(error) };
          }
          record('calls.jsonl', {
            args,
            sessionID: context.sessionID,
            agent: context.agent,
            child,
          });
          return `echoed ${JSON.stringify(args)}`;
        },
      },
    },
  };
}

export default { id: 'teamkit-probe', server };
