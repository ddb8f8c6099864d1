import fs from 'node:fs';
import path from 'node:path';

/**
 * Whether the file store rooted at `root` certainly holds nothing under the one-segment
 * `prefix`: the root does not exist, or it is a folder without `<root>/<prefix>`. The file
 * store lists exactly nothing then, so a caller may answer without loading it. False for
 * anything else, errors included (the store itself then lists, or reports the problem).
 */
export function isAbsentFolderCollection(root: string, prefix: string): boolean {
  try {
    const home = path.resolve(root);
    // As the file store does: a symlinked root is the user's choice and is followed.
    const info = fs.statSync(home, { throwIfNoEntry: false });
    if (info === undefined) return true;
    if (!info.isDirectory()) return false;
    fs.realpathSync(home);
    return fs.lstatSync(path.join(home, prefix), { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}
