import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_FILE, REPOSITORY_ROOT, renderApiReports, UPDATE_COMMAND } from './api-report.mjs';

const reports = [...renderApiReports()];

function checkedIn(folder: string): string | undefined {
  try {
    return readFileSync(path.join(REPOSITORY_ROOT, folder, REPORT_FILE), 'utf8');
  } catch {
    return undefined;
  }
}

describe('API reports', () => {
  it('covers every published package, each with at least one entry', () => {
    expect(reports.map(([folder]) => folder)).toContain('packages/team-core');
    for (const [folder, report] of reports) expect(report, folder).toMatch(/^## `@teamkit\//m);
  });

  it.each(reports)('%s/api-report.md lists what its source exports', (folder, report) => {
    const file = checkedIn(folder);
    expect(
      file,
      `${folder}/${REPORT_FILE} differs from the exports of its source. If the change is meant, run \`${UPDATE_COMMAND}\` and commit the report.`,
    ).toBe(report);
  });
});
