// Teamkit's writer in its own process.
//   messages <configDir> <team> <to> <label> <count>   prints each text once written
//   tasks <configDir> <team> <label> <count>           prints `<id> <subject>` per task
//   reader <configDir> <team>                          reads the team until stdin says stop; prints problems
import { createClaudeTeamSource, createClaudeTeamWriter } from '@teamkit/claude-code';

const [mode, configDir, team, ...rest] = process.argv.slice(2);
const say = (line) => process.stdout.write(`${line}\n`);
const writer = createClaudeTeamWriter({ configDir, lockTimeoutMs: 120_000 });

if (mode === 'messages') {
  const [to, label, count] = rest;
  for (let n = 1; n <= Number(count); n += 1) {
    const text = `${label}-${n}`;
    await writer.sendMessage({ team, to, text });
    say(text);
  }
  say('done');
} else if (mode === 'tasks') {
  const [label, count] = rest;
  for (let n = 1; n <= Number(count); n += 1) {
    const subject = `${label}-${n}`;
    const { id } = await writer.createTask({ team, subject, description: `made by ${label}` });
    say(`${id} ${subject}`);
  }
  say('done');
} else if (mode === 'reader') {
  let stopping = false;
  process.stdin.on('data', () => {
    stopping = true;
  });
  const source = createClaudeTeamSource({ configDir, retry: { attempts: 10, delayMs: 5 } });
  let reads = 0;
  while (!stopping) {
    const view = await source.readTeam(team);
    for (const problem of view.problems) say(`problem ${problem.file}: ${problem.reason}`);
    reads += 1;
  }
  process.stdin.destroy();
  say(`reads ${reads}`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
