/**
 * Runs `nats-server` for a test and makes sure it ends with the test process: started as
 * `node nats-server-guardian.js <server> <args...>` with a pipe on stdin, it starts the
 * server, prints `pid <n>` on stdout, and stops the server (SIGTERM, then SIGKILL) once
 * stdin closes, which happens when its parent ends, however it ends. The server's own
 * log goes to this process's stderr.
 */
import { spawn } from 'node:child_process';

const [server, ...args] = process.argv.slice(2);
if (server === undefined) {
  process.stderr.write('usage: nats-server-guardian <nats-server> [args...]\n');
  process.exit(2);
}
const child = spawn(server, args, { stdio: ['ignore', 'ignore', 'inherit'] });
process.stdout.write(`pid ${child.pid}\n`);

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
}

child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
child.on('error', (error) => {
  process.stderr.write(`nats-server-guardian: ${error.message}\n`);
  process.exit(1);
});
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
