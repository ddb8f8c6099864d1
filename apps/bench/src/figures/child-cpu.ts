import { readFileSync } from 'node:fs';

/**
 * CPU time, in ms, of every child this process has waited for (user + system), from
 * Linux's `/proc/self/stat` (`cutime` + `cstime`, in 10 ms ticks); `undefined` where
 * there is no `/proc`. A synchronous spawn waits for its child, so the difference across
 * one is that child's CPU time: the operating system's own accounting, as `time` reports.
 */
export function childCpuMs(): number | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // Fields start after the command name's last ')': state is field 3, cutime 16, cstime 17.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  // USER_HZ is 100 on every Linux build Node supports.
  return Number.isFinite(ticks) ? ticks * 10 : undefined;
}
