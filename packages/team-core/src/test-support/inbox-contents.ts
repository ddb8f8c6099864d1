import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { MessageSchema } from '../schema/index.js';

/** Every message file of one inbox, grouped by where it sits; each file must parse. */
export async function inboxContents(inbox: string) {
  const unread: string[] = [];
  const reserved: string[] = [];
  const temp: string[] = [];
  for (const name of await readdir(inbox).catch(() => [] as string[])) {
    if (name === 'processed') continue;
    if (name.startsWith('.tmp-')) temp.push(name);
    else if (name.startsWith('.delivering-')) reserved.push(name.slice('.delivering-'.length, -5));
    else if (name.endsWith('.json')) unread.push(name.slice(0, -5));
  }
  const processedDir = path.join(inbox, 'processed');
  const processed = (await readdir(processedDir).catch(() => [] as string[])).map((n) =>
    n.slice(0, -5),
  );
  const files = [
    ...unread.map((id) => path.join(inbox, `${id}.json`)),
    ...reserved.map((id) => path.join(inbox, `.delivering-${id}.json`)),
    ...processed.map((id) => path.join(processedDir, `${id}.json`)),
  ];
  for (const file of files) {
    const parsed = MessageSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (!parsed.success) throw new Error(`torn or invalid message ${file}`);
  }
  return { unread, reserved, processed, temp };
}
