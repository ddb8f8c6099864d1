// An MCP client that starts a teamkit-mcp server (argv[2] is its bin), leaves a
// wait_for_mail call in flight, prints the server's pid and then waits to be killed.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [process.argv[2]],
  env: { ...process.env },
  stderr: 'ignore',
});
const client = new Client({ name: 'left-waiting', version: '1.0.0' });
await client.connect(transport);
client.callTool({ name: 'wait_for_mail', arguments: { timeoutSeconds: 50 } }).catch(() => {});
process.stdout.write(`${transport.pid}\n`);
setInterval(() => {}, 60_000);
