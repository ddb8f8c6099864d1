import { readdirSync, readFileSync } from 'node:fs';
import { isSameFolder } from '@teamkit/team-core';
import { readProcessEnvironment } from '@teamkit/team-core/processes';

/** A live process that belongs to a test's Teamkit home. */
export interface HomeProcess {
  pid: number;
  /** Its command line, arguments joined by spaces (empty when unreadable). */
  commandLine: string;
}

function isZombie(pid: number): boolean {
  try {
    // The state follows the command name, which may itself hold `) `: take the last one.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(') ') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/**
 * Every live process (zombies and this process left out) whose environment names `home`
 * as its Teamkit home, or, with `commandLine`, whose command line mentions `home`: the
 * members, agent CLIs and servers a test's run started, found without trusting the run's
 * own records. Processes that are gone or not ours to read are passed over.
 */
export function processesOfHome(
  home: string,
  options: { commandLine?: boolean } = {},
): HomeProcess[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: HomeProcess[] = [];
  for (const name of names) {
    if (!/^[0-9]+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const value = readProcessEnvironment(pid)?.get('TEAMKIT_HOME');
    const byEnvironment = value !== undefined && isSameFolder(value, home);
    const commandLine = commandLineOf(pid);
    const byCommandLine = options.commandLine === true && commandLine.includes(home);
    if ((byEnvironment || byCommandLine) && !isZombie(pid)) found.push({ pid, commandLine });
  }
  return found;
}

/** SIGKILLs every process of {@link processesOfHome}; returns how many were signalled. */
export function killProcessesOfHome(home: string, options: { commandLine?: boolean } = {}): number {
  let killed = 0;
  for (const { pid } of processesOfHome(home, options)) {
    try {
      process.kill(pid, 'SIGKILL');
      killed += 1;
    } catch {
      // Gone already.
    }
  }
  return killed;
}
