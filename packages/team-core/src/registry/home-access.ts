import { stat } from 'node:fs/promises';
import path from 'node:path';

/** Something about the Teamkit home that lets other local users in. */
export interface HomeAccessFinding {
  path: string;
  /** Its permission bits in octal, e.g. `"0755"`. */
  mode: string;
  issue: 'readable-by-others' | 'writable-by-others' | 'owned-by-another-user' | 'not-a-folder';
  /** What it means and the command that fixes it. */
  message: string;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

async function inspectFolder(folder: string): Promise<HomeAccessFinding[]> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(folder);
  } catch {
    return [];
  }
  const mode = octal(info.mode);
  if (!info.isDirectory()) {
    return [
      {
        path: folder,
        mode,
        issue: 'not-a-folder',
        message: `${folder} is not a folder; Teamkit cannot keep runs in it. Move it aside.`,
      },
    ];
  }
  const findings: HomeAccessFinding[] = [];
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) {
    findings.push({
      path: folder,
      mode,
      issue: 'owned-by-another-user',
      message: `${folder} belongs to user id ${info.uid}, not to you (${uid}): that user controls your runs. Use a home of your own.`,
    });
  }
  if ((info.mode & 0o022) !== 0) {
    findings.push({
      path: folder,
      mode,
      issue: 'writable-by-others',
      message: `${folder} (${mode}) is writable by other users, who can plant files and links in it. Run: chmod 700 ${folder}`,
    });
  } else if ((info.mode & 0o055) !== 0) {
    findings.push({
      path: folder,
      mode,
      issue: 'readable-by-others',
      message: `${folder} (${mode}) is readable by other users; messages, prompts and run state may hold secrets. Run: chmod 700 ${folder}`,
    });
  }
  return findings;
}

/**
 * Checks that the Teamkit home and its `runtime/` folder are private to the current
 * user: a folder owned by someone else, or readable or writable by group or others, is
 * reported with the command that fixes it. Reads only; a missing home is fine. Skipped
 * on Windows, where these mode bits do not describe access.
 */
export async function inspectHomeAccess(home: string): Promise<HomeAccessFinding[]> {
  if (process.platform === 'win32') return [];
  return [...(await inspectFolder(home)), ...(await inspectFolder(path.join(home, 'runtime')))];
}
