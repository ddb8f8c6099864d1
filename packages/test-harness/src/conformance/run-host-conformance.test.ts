import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '__fixtures__');
const vitestBin = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

interface JsonReport {
  testResults: {
    assertionResults: { ancestorTitles: string[]; title: string; status: string }[];
  }[];
}

/** Runs the flawed hosts through the suite in a separate vitest and returns each case's status. */
async function runFlawedHosts(): Promise<Map<string, string>> {
  const folder = await mkdtemp(join(tmpdir(), 'teamkit-conformance-'));
  try {
    const outputFile = join(folder, 'report.json');
    const stderr = await new Promise<string>((resolve) => {
      // The run fails on purpose; the report, not the exit code, says how.
      execFile(
        process.execPath,
        [
          vitestBin,
          'run',
          '--config',
          'vitest.config.ts',
          '--root',
          '.',
          '--reporter=json',
          `--outputFile=${outputFile}`,
        ],
        { cwd: fixtures, timeout: 120_000 },
        (_error, _stdout, output) => resolve(output),
      );
    });
    const text = await readFile(outputFile, 'utf8').catch(() => {
      throw new Error(`The flawed-host run wrote no report. Its stderr:\n${stderr}`);
    });
    const report = JSON.parse(text) as JsonReport;
    const statuses = new Map<string, string>();
    for (const file of report.testResults) {
      for (const result of file.assertionResults) {
        const host = result.ancestorTitles[0]?.split(':')[0] ?? '';
        statuses.set(`${host} / ${result.title}`, result.status);
      }
    }
    return statuses;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const CASES = [
  'speaks team-host-v1 and names itself',
  'passes assertTeamHost',
  'spawnMember returns a non-empty session id, new for every spawn',
  'isAlive is true after spawn and false for an unknown session id',
  'deliver to an idle live session answers delivered',
  'deliver to a busy session answers deferred',
  'after a crash, isAlive is false and deliver does not answer delivered',
  'interrupt answers interrupted, idle or unknown, or is absent',
  'stopMember ends the session, or is absent',
  'attachCommand returns an argument array or undefined, or is absent',
  'concurrent deliveries to two members both answer delivered',
  'concurrent deliveries do not cross: each session receives only its own',
];

const EXPECTED_FAILURES: Record<string, string[]> = {
  'ignores busy': ['deliver to a busy session answers deferred'],
  'never dies': [
    'isAlive is true after spawn and false for an unknown session id',
    'after a crash, isAlive is false and deliver does not answer delivered',
    'stopMember ends the session, or is absent',
  ],
  'reuses session ids': ['spawnMember returns a non-empty session id, new for every spawn'],
  'crosses deliveries': ['concurrent deliveries do not cross: each session receives only its own'],
  'bad optional methods': [
    'interrupt answers interrupted, idle or unknown, or is absent',
    'stopMember ends the session, or is absent',
    'attachCommand returns an argument array or undefined, or is absent',
  ],
};

describe('runHostConformance', () => {
  it('fails exactly the cases that check what a flawed host gets wrong', async () => {
    const statuses = await runFlawedHosts();
    const expected = new Map<string, string>();
    for (const [host, failures] of Object.entries(EXPECTED_FAILURES)) {
      for (const title of CASES) {
        expected.set(`${host} / ${title}`, failures.includes(title) ? 'failed' : 'passed');
      }
    }
    expect(Object.fromEntries(statuses)).toEqual(Object.fromEntries(expected));
  });
});
