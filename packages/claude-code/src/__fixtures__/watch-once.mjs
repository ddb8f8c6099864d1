// Watches a config folder, closes the watch from inside the listener on the first change,
// and prints it. The process must then exit on its own: nothing may stay open.
import { createClaudeTeamSource } from '@teamkit/claude-code';

const [configDir] = process.argv.slice(2);
const watch = createClaudeTeamSource({ configDir }).watch(
  (change) => {
    watch.close();
    process.stdout.write(`${change.type}\n`);
  },
  { debounceMs: 10, reconcileMs: 100 },
);
