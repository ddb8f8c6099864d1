// A stand-in for a one-shot agent CLI: one turn per process. It appends what it was
// given to the JSON-lines log named by ONE_SHOT_LOG, prints a JSON result with a session
// id (continuing the one it was given with --resume), and exits with the code found in
// `<log>.exit` (consumed one line per turn; 0 when there is none). With a `<log>.send`
// file it runs `team send` with its contents, through whatever `team` is on PATH.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

const args = process.argv.slice(2);
const log = process.env.ONE_SHOT_LOG;
const resumeAt = args.indexOf('--resume');
const sessionId = resumeAt >= 0 ? args[resumeAt + 1] : randomUUID();
const promptAt = args.indexOf('--prompt');
const prompt = promptAt >= 0 ? args[promptAt + 1] : readFileSync(args[0], 'utf8');
let code = 0;
if (log !== undefined && existsSync(`${log}.exit`)) {
  const lines = readFileSync(`${log}.exit`, 'utf8').split('\n').filter(Boolean);
  code = Number(lines.shift() ?? 0);
  writeFileSync(`${log}.exit`, lines.map((line) => `${line}\n`).join(''));
}
let sent;
if (log !== undefined && existsSync(`${log}.send`)) {
  const [to, body] = readFileSync(`${log}.send`, 'utf8').trim().split('\t');
  try {
    sent = execFileSync('team', ['send', '--to', to, body], { encoding: 'utf8' }).trim();
  } catch (error) {
    sent = `failed: ${error.message}`;
  }
}
if (log !== undefined) {
  appendFileSync(
    log,
    `${JSON.stringify({
      member: process.env.TEAMKIT_MEMBER,
      pid: process.pid,
      cwd: process.cwd(),
      resumed: resumeAt >= 0 ? sessionId : null,
      prompt,
      code,
      sent,
      hasToken: (process.env.TEAMKIT_TOKEN ?? '') !== '',
      spawn: process.env.TEAMKIT_SPAWN ?? null,
    })}\n`,
  );
}
if (process.env.ONE_SHOT_SLEEP_MS !== undefined) {
  await delay(Number(process.env.ONE_SHOT_SLEEP_MS));
}
process.stdout.write(`${JSON.stringify({ session_id: sessionId, result: 'done' })}\n`);
process.exit(code);
