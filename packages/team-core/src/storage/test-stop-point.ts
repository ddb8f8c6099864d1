const STOP_VARIABLE = 'TEAMKIT_TEST_STOP_AT';
const stopped = new Set<string>();

/**
 * Test only: when the environment names `point` in `TEAMKIT_TEST_STOP_AT`, the process
 * stops itself (SIGSTOP) the first time it gets here, so a test can freeze it at an exact
 * point (e.g. between a claim's read and its compare-and-set) and resume it with SIGCONT.
 * Without the variable this does nothing; never set it outside tests.
 */
export function stopHereForTest(point: string): void {
  if (process.env[STOP_VARIABLE] !== point || stopped.has(point)) return;
  stopped.add(point);
  process.kill(process.pid, 'SIGSTOP');
}
