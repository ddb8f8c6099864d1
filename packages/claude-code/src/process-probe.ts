import { readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';

/**
 * What liveness checks need from the operating system; tests pass their own.
 * {@link createProcessProbe} gives the real one.
 */
export interface ProcessProbe {
  /** This process's pid space, spelled as Claude Code spells it: `<hostname>#<pid namespace>`. */
  pidSpace(): string;
  /** True while a process with this pid exists (also when it belongs to another user). */
  isRunning(pid: number): boolean;
  /**
   * The start time Claude Code records as `procStart` (field 22 of `/proc/<pid>/stat`),
   * or `undefined` where it cannot be read (not Linux, process gone).
   */
  startTimeOf(pid: number): string | undefined;
}

/** The real {@link ProcessProbe} of this machine. */
export function createProcessProbe(): ProcessProbe {
  let space: string | undefined;
  return {
    pidSpace() {
      if (space === undefined) {
        let namespace = '';
        try {
          namespace = readlinkSync('/proc/self/ns/pid');
        } catch {
          namespace = '';
        }
        space = `${os.hostname()}${namespace === '' ? '' : `#${namespace}`}`;
      }
      return space;
    },
    isRunning(pid) {
      if (!Number.isSafeInteger(pid) || pid <= 1) return false;
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    },
    startTimeOf(pid) {
      if (process.platform !== 'linux') return undefined;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // The command name (field 2) may hold spaces and parentheses: count from its end.
        return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      } catch {
        return undefined;
      }
    },
  };
}
