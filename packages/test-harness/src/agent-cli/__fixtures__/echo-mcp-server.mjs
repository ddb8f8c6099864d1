// A tiny MCP server over stdio for host tests: one tool, `echo`, that answers
// `echo: <text>`. Each call is appended as a JSON line to the file named by the first
// argument, with the process id and the environment the host gave this process, so a
// test can see that the tool ran and what the host passed to its server (every variable's
// name; values only for the variables hosts and Teamkit set, never the rest).
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const logFile = process.argv[2];

function record(entry) {
  if (logFile) appendFileSync(logFile, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
}

const SHOWN = /^(TEAMKIT_|CLAUDE|CODEX|OPENCODE|GEMINI|MCP_|ECHO_|AGENT$|HOME$|PWD$)/;
const env = Object.fromEntries(
  Object.keys(process.env)
    .sort()
    .map((name) => [name, SHOWN.test(name) ? process.env[name] : '(set)']),
);
record({ event: 'start', env, cwd: process.cwd(), argv: process.argv.slice(2) });

serveStdio(() => {
  const server = new McpServer(
    { name: 'teamkit-echo', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    'echo',
    {
      description: 'Echoes the given text back.',
      inputSchema: z.object({ text: z.string().describe('The text to echo.') }),
    },
    async ({ text }, context) => {
      record({ event: 'call', text, meta: context?.mcpReq?._meta ?? null });
      return { content: [{ type: 'text', text: `echo: ${text}` }] };
    },
  );
  return server;
});
