import { describe, expect, it } from 'vitest';
import { expandAgentCommand, parseAgentCommand, resolveScriptedAgent } from './agent-command.js';

const values = {
  member: 'implementer',
  role: 'implementer',
  run: 'r-1',
  team: 'coding-team',
  'prompt-file': '/h/runtime/r-1/prompts/implementer.md',
  home: '/h',
  cwd: '/w',
  model: '',
  prompt: '',
};

describe('agent command templates', () => {
  it('parses quoted words and expands placeholders inside them', () => {
    const words = parseAgentCommand(
      `opencode run --agent {member} "$(cat)" --prompt-file={prompt-file}`.replace(
        '"$(cat)"',
        "'hello {role}'",
      ),
    );
    expect(expandAgentCommand(words, values)).toEqual([
      'opencode',
      'run',
      '--agent',
      'implementer',
      'hello implementer',
      '--prompt-file=/h/runtime/r-1/prompts/implementer.md',
    ]);
    expect(expandAgentCommand(['node', '-e', '()=>{}'], values)).toEqual(['node', '-e', '()=>{}']);
  });

  it('refuses shell operators, substitutions and variables', () => {
    for (const template of [
      'agent; rm -rf x',
      'agent | tee log',
      'agent && x',
      'agent > out',
      'agent $HOME',
      'agent *',
      '',
    ]) {
      expect(() => parseAgentCommand(template), template).toThrow(/template/);
    }
  });

  it('runs teamkit-agent with this Node', () => {
    const argv = resolveScriptedAgent(['teamkit-agent', '--role', 'tester']);
    expect(argv[0]).toBe(process.execPath);
    expect(argv[1]).toMatch(/teamkit-agent\.js$/);
    expect(argv.slice(2)).toEqual(['--role', 'tester']);
    expect(resolveScriptedAgent(['claude', '-p'])).toEqual(['claude', '-p']);
  });
});
