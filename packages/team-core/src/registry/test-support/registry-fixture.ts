import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Writes `files` (relative path → content) under `root`. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** Every entry under `root` with its kind and a content hash, to prove nothing was written. */
export async function snapshotTree(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string) => {
    for (const name of (await readdir(folder)).sort()) {
      const full = path.join(folder, name);
      const relative = path.relative(root, full);
      const info = await lstat(full);
      if (info.isSymbolicLink()) out.push(`link ${relative} -> ${await readlink(full)}`);
      else if (info.isDirectory()) {
        out.push(`dir  ${relative}`);
        await walk(full);
      } else if (info.isFile()) {
        const hash = createHash('sha256')
          .update(await readFile(full))
          .digest('hex');
        out.push(`file ${relative} ${info.size} ${hash.slice(0, 16)}`);
      } else out.push(`other ${relative}`);
    }
  };
  await walk(root);
  return out;
}

/** A minimal valid agent file. */
export function agentFile(description: string, prompt = `You are ${description}.`): string {
  return `---\ndescription: ${description}\n---\n${prompt}\n`;
}

/** Files of a valid two-member team package `id` (lead + dev) at `folder` (relative). */
export function teamPackage(
  folder: string,
  id: string,
  options: { lead?: string; members?: string[]; extraManifest?: string } = {},
): Record<string, string> {
  const members = options.members ?? ['lead', 'dev'];
  const lead = options.lead ?? members[0] ?? 'lead';
  const manifest = [
    `id: ${id}`,
    `name: ${id} team`,
    `lead: ${lead}`,
    'members:',
    ...members.map((member) => `  - name: ${member}\n    role: ${member}`),
    options.extraManifest ?? '',
  ].join('\n');
  const files: Record<string, string> = { [`${folder}/team.yaml`]: `${manifest}\n` };
  for (const member of new Set(members)) {
    files[`${folder}/${member}.agent.md`] = agentFile(`${member} of ${id}`);
  }
  return files;
}

/** A config source document with the given team entries and settings. */
export function configJson(teams: unknown[], settings: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ version: 1, teams, settings }, null, 2)}\n`;
}
