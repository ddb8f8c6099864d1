import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { getAgentPreset, type PreparedAgent, type PresetFile } from '../agent-presets/index.js';
import { expandAgentCommand, parseAgentCommand } from '../process-host/agent-command.js';
import type { MemberLaunch } from '../process-host/run-launch.js';
import { currentTeamCommand } from '../process-host/team-shim.js';

/** What {@link prepareTurnAgent} needs to know about the member. */
export interface TurnAgentInput {
  home: string;
  runId: string;
  teamName: string;
  member: { name: string; role: string; isLead: boolean; model?: string };
  cwd: string;
  launch: MemberLaunch;
  /** The file holding the member's prompt (the `{prompt-file}` of long templates). */
  promptFile: string;
  /** The MCP server command; default {@link memberMcpCommand}. */
  mcpCommand?: readonly string[];
  /** Folders besides `cwd` edits may reach; default the common git folder of `cwd`. */
  writableRoots?: readonly string[];
}

/** The folder of a member's per-run agent files (`runtime/<run>/agents/<member>/`). */
export function memberAgentFolder(home: string, runId: string, member: string): string {
  return path.join(home, 'runtime', runId, 'agents', member);
}

/**
 * The git folders a member's edits must reach besides its working folder, so `git commit`
 * works inside a sandbox: the common git folder of the repository (objects, refs) and,
 * for a linked worktree, the worktree's own git folder (its index, HEAD and logs). Codex's
 * sandbox makes a writable root's `.git`, and the folder a `.git` file points to, read-only
 * unless that folder is a writable root itself, so a worktree needs both named. None
 * outside git.
 */
export function gitWritableRoots(cwd: string): string[] {
  try {
    const output = execFileSync(
      'git',
      ['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-dir'],
      {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const folders = output.split('\n').filter((line) => line !== '');
    return [...new Set(folders)];
  } catch {
    return [];
  }
}

/** A one-shot `--agent-cmd` template as a turn agent: each turn expands it with the turn's prompt. */
function templateAgent(
  input: TurnAgentInput,
  template: string,
  model: string | undefined,
): PreparedAgent {
  const words = parseAgentCommand(template);
  const turnFile = path.join(path.dirname(input.promptFile), `${input.member.name}.turn.md`);
  return {
    files: [],
    env: {},
    turnArgv: ({ prompt }) =>
      expandAgentCommand(words, {
        member: input.member.name,
        role: input.member.role,
        run: input.runId,
        team: input.teamName,
        'prompt-file': turnFile,
        home: input.home,
        cwd: input.cwd,
        model: model ?? '',
        prompt,
      }),
    sessionIdFrom: () => undefined,
    turnFile,
  };
}

/**
 * The command that serves a member's team tools over MCP: this CLI's own `team mcp`. It
 * opens the store of the member's home the way every `team` command does
 * (`TEAMKIT_STORE`, or the `store.url` setting), so a member of a run kept in NATS reaches
 * that run; the bare `teamkit-mcp` program reads runs from the home folder only.
 */
export function memberMcpCommand(): string[] {
  const { node, bin } = currentTeamCommand();
  return [node, bin, 'mcp'];
}

/** Binds a member's launch record to a turn agent (the preset's, or a one-shot template). */
export function prepareTurnAgent(input: TurnAgentInput): PreparedAgent {
  const model = input.launch.model ?? input.member.model;
  if (input.launch.kind === 'command') return templateAgent(input, input.launch.template, model);
  const preset = getAgentPreset(input.launch.preset);
  const mcpCommand = [
    ...(input.mcpCommand ?? memberMcpCommand()),
    '--tools',
    input.member.isLead ? 'lead' : 'member',
  ];
  return preset.prepare({
    program: input.launch.program,
    folder: memberAgentFolder(input.home, input.runId, input.member.name),
    cwd: input.cwd,
    ...(model === undefined ? {} : { model }),
    mcpCommand,
    writableRoots: input.writableRoots ?? gitWritableRoots(input.cwd),
  });
}

/**
 * Writes files of a member inside the Teamkit home `home` (a preset's files, a turn's
 * prompt file) with team-core's `writePrivateFile`: private to the user (folders 0700,
 * files 0600), each a fresh temp file renamed into place, so a planted link is replaced,
 * never written through. A path outside the home is refused (`PATH_TRAVERSAL`).
 */
export async function writePresetFiles(home: string, files: readonly PresetFile[]): Promise<void> {
  const { writePrivateFile } = await import('@teamkit/team-core/storage');
  for (const file of files) {
    await writePrivateFile(
      home,
      path.relative(home, file.path).split(path.sep).join('/'),
      file.text,
    );
  }
}
