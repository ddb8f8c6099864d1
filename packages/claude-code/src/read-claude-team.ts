import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isCheckedClaudeCodeVersion } from './checked-versions.js';
import { claudeTeamPaths, sanitizePathComponent } from './claude-paths.js';
import type {
  ClaudeFileProblem,
  ClaudeInbox,
  ClaudeTask,
  ClaudeTeamLiveness,
  ClaudeTeamView,
  ClaudeWarning,
} from './claude-team-view.js';
import { judgeLeadProcess } from './lead-liveness.js';
import { readLeadVersion } from './lead-session.js';
import { parseInbox } from './parse-inbox.js';
import { parseTask } from './parse-task.js';
import { type ClaudeTeamConfig, parseTeamConfig } from './parse-team-config.js';
import { definedFields } from './plain-object.js';
import type { ProcessProbe } from './process-probe.js';
import { readJsonWithRetry, type TornReadRetry } from './read-json-with-retry.js';

/** What reading a team needs: where, how to check processes, how hard to retry torn reads. */
export interface ReadTeamContext {
  readonly configDir: string;
  readonly probe: ProcessProbe;
  readonly retry?: TornReadRetry;
}

async function listFolder(folder: string): Promise<string[] | undefined> {
  try {
    return await readdir(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

async function modifiedAt(file: string): Promise<number> {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return 0;
  }
}

/** A task file name the way Claude Code reads ids from it (`parseInt` of the name). */
export function taskIdOfFileName(name: string): number | undefined {
  if (!name.endsWith('.json') || name.startsWith('.')) return undefined;
  const id = Number.parseInt(name.slice(0, -'.json'.length), 10);
  return Number.isNaN(id) ? undefined : id;
}

/** Reads `.highwatermark` as Claude Code does: missing is 0, unreadable is `undefined`. */
export async function readHighWatermark(
  file: string,
  retry?: TornReadRetry,
): Promise<number | undefined> {
  // Claude Code rewrites it in place; an empty read is retried like any torn file.
  const attempts = Math.max(1, retry?.attempts ?? 6);
  for (let attempt = 1; ; attempt += 1) {
    let text: string;
    try {
      text = (await readFile(file, 'utf8')).trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      return undefined;
    }
    const value = Number.parseInt(text, 10);
    if (!Number.isNaN(value)) return value;
    if (attempt >= attempts) return undefined;
    await delay((retry?.delayMs ?? 10) * 2 ** (attempt - 1));
  }
}

async function readTasks(
  folder: string,
  retry: TornReadRetry | undefined,
  problems: ClaudeFileProblem[],
): Promise<{ tasks: ClaudeTask[]; highestFileId: number; updatedAt: number } | undefined> {
  const names = await listFolder(folder);
  if (names === undefined) return undefined;
  const tasks: ClaudeTask[] = [];
  let highestFileId = 0;
  let updatedAt = 0;
  for (const name of names.sort()) {
    const fileId = taskIdOfFileName(name);
    if (fileId === undefined) continue;
    highestFileId = Math.max(highestFileId, fileId);
    const file = path.join(folder, name);
    const read = await readJsonWithRetry(file, retry);
    if (read.kind === 'missing') continue; // deleted between the listing and the read
    updatedAt = Math.max(updatedAt, await modifiedAt(file));
    if (read.kind === 'unreadable') {
      problems.push({ file, reason: read.reason });
      continue;
    }
    const parsed = parseTask(read.value);
    if (parsed.ok) tasks.push(parsed.task);
    else problems.push({ file, reason: parsed.reason });
  }
  tasks.sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));
  return { tasks, highestFileId, updatedAt };
}

async function readInboxes(
  folder: string,
  memberNames: readonly string[],
  retry: TornReadRetry | undefined,
  problems: ClaudeFileProblem[],
): Promise<{ inboxes: ClaudeInbox[]; updatedAt: number }> {
  const names = (await listFolder(folder)) ?? [];
  const known = new Set(memberNames.map(sanitizePathComponent));
  const inboxes: ClaudeInbox[] = [];
  let updatedAt = 0;
  for (const name of names.sort()) {
    // Temp files (`<name>.json.tmp.<hex>`) and lock folders (`<name>.json.lock`) end otherwise.
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    const file = path.join(folder, name);
    const read = await readJsonWithRetry(file, retry);
    if (read.kind === 'missing') continue;
    updatedAt = Math.max(updatedAt, await modifiedAt(file));
    if (read.kind === 'unreadable') {
      problems.push({ file, reason: read.reason });
      continue;
    }
    const parsed = parseInbox(read.value);
    if (!parsed.ok) {
      problems.push({ file, reason: parsed.reason });
      continue;
    }
    const recipient = name.slice(0, -'.json'.length);
    inboxes.push({
      recipient,
      orphan: !known.has(recipient),
      pending: parsed.pending,
      malformed: parsed.malformed,
    });
  }
  return { inboxes, updatedAt };
}

/**
 * Reads everything Teamkit can know of one Claude Code team, or `undefined` when
 * neither its team folder nor its task list exists. Torn files are read again a few
 * times before they become `problems`; nothing is ever written.
 */
export async function readClaudeTeam(
  context: ReadTeamContext,
  team: string,
): Promise<ClaudeTeamView | undefined> {
  const paths = claudeTeamPaths(context.configDir, team);
  const problems: ClaudeFileProblem[] = [];
  const warnings: ClaudeWarning[] = [];
  const configRead = await readJsonWithRetry(paths.configFile, context.retry);
  const teamFolderExists = (await listFolder(paths.teamFolder)) !== undefined;
  let config: ClaudeTeamConfig | undefined;
  if (configRead.kind === 'ok') {
    const parsed = parseTeamConfig(configRead.value, team);
    if (parsed.ok) config = parsed.config;
    else problems.push({ file: paths.configFile, reason: parsed.reason });
  } else if (configRead.kind === 'unreadable') {
    problems.push({ file: paths.configFile, reason: configRead.reason });
  }
  const taskRead = await readTasks(paths.taskListFolder, context.retry, problems);
  if (!teamFolderExists && taskRead === undefined) return undefined;

  const members = config?.members ?? [];
  const { inboxes, updatedAt: inboxesUpdatedAt } = await readInboxes(
    paths.inboxesFolder,
    members.map((member) => member.name),
    context.retry,
    problems,
  );
  const tasks = taskRead?.tasks ?? [];
  const highWatermark =
    taskRead === undefined ? 0 : await readHighWatermark(paths.highWatermark, context.retry);

  let liveness: ClaudeTeamLiveness;
  let version: string | undefined;
  if (config !== undefined) {
    const lead = config.leadProcess;
    version =
      lead === undefined
        ? undefined
        : await readLeadVersion(context.configDir, {
            pid: lead.pid,
            ...(config.leadSessionId === undefined ? {} : { sessionId: config.leadSessionId }),
          });
    liveness = judgeLeadProcess(lead, context.probe);
  } else if (!teamFolderExists) {
    liveness = {
      status: 'finished',
      reason:
        'the team folder is gone, as Claude Code leaves it when the lead ends; its tasks remain',
    };
  } else {
    liveness = {
      status: 'unknown',
      reason:
        configRead.kind === 'missing'
          ? 'the team folder has no config.json'
          : 'config.json could not be read',
    };
  }
  if (version !== undefined && !isCheckedClaudeCodeVersion(version)) {
    warnings.push({
      code: 'UNCHECKED_VERSION',
      message: `The lead runs Claude Code ${version}; Teamkit was checked against other versions, so fields may be missing or misread.`,
    });
  }
  if (highWatermark === undefined) {
    warnings.push({
      code: 'HIGH_WATERMARK_UNREADABLE',
      message: `${paths.highWatermark} is not a number; the highest task id is taken from the task files alone.`,
    });
  }

  const count = (status: ClaudeTask['status']) =>
    tasks.filter((task) => task.status === status).length;
  const updatedAt = Math.max(
    await modifiedAt(paths.configFile),
    taskRead?.updatedAt ?? 0,
    inboxesUpdatedAt,
  );
  return {
    name: team,
    liveness,
    hasConfig: config !== undefined,
    memberCount: members.length,
    taskCounts: {
      pending: count('pending'),
      in_progress: count('in_progress'),
      completed: count('completed'),
    },
    pendingMessages: inboxes.reduce((sum, inbox) => sum + inbox.pending.length, 0),
    updatedAt,
    warnings,
    members,
    tasks,
    highestTaskId: Math.max(taskRead?.highestFileId ?? 0, highWatermark ?? 0),
    inboxes,
    problems,
    ...definedFields({
      createdAt: config?.createdAt,
      leadSessionId: config?.leadSessionId,
      version,
      description: config?.description,
      leadAgentId: config?.leadAgentId,
      extra: config?.extra,
    }),
  };
}
