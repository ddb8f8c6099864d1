// A stand-in for Claude Code 2.1.328's own writers, following its locking exactly as
// observed: proper-lockfile with Claude Code's retry options, the inbox lock folder
// `<inbox>.lock`, the task-list lock on `tasks/<team>/.lock` (folder `.lock.lock`),
// inboxes replaced through `<inbox>.tmp.<8 hex>` + rename, task files written in place.
//
//   inbox-writer <inbox> <label> <count>     appends `<label>-<n>` entries, prints each
//   inbox-reader <inbox>                     takes entries out as delivery does, until stdin says stop
//   task-writer <folder> <label> <count>     creates tasks `<label>-<n>`, prints each id
//   task-updater <folder>                    rewrites existing tasks' status in place, until stop
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import lockfile from 'proper-lockfile';

const INBOX_LOCK = { retries: { retries: 10, minTimeout: 5, maxTimeout: 100 } };
const TASKS_LOCK = { retries: { retries: 30, minTimeout: 5, maxTimeout: 100 } };
const [mode, ...args] = process.argv.slice(2);
let stopping = false;
// Only the looping modes listen: an open stdin would keep a writer from exiting.
if (mode === 'inbox-reader' || mode === 'task-updater') {
  process.stdin.on('data', () => {
    stopping = true;
  });
}
const say = (line) => process.stdout.write(`${line}\n`);

// Claude Code reports a lock it could not get as a failed call; a caller tries again.
async function underLock(file, options, fn) {
  for (;;) {
    let release;
    try {
      release = await lockfile.lock(file, options);
    } catch (error) {
      if (error.code !== 'ELOCKED') throw error;
      await delay(5 + Math.random() * 20);
      continue;
    }
    try {
      return await fn();
    } finally {
      await release();
    }
  }
}

async function replaceInbox(inbox, entries) {
  const temp = `${inbox}.tmp.${randomBytes(4).toString('hex')}`;
  await writeFile(temp, JSON.stringify(entries, null, 2), { flag: 'wx' });
  await rename(temp, inbox);
}

async function ensureInbox(inbox) {
  await writeFile(inbox, '[]', { flag: 'wx' }).catch((error) => {
    if (error.code !== 'EEXIST') throw error;
  });
}

if (mode === 'inbox-writer') {
  const [inbox, label, count] = args;
  await ensureInbox(inbox);
  for (let n = 1; n <= Number(count); n += 1) {
    const text = `${label}-${n}`;
    await underLock(inbox, { lockfilePath: `${inbox}.lock`, ...INBOX_LOCK }, async () => {
      const entries = JSON.parse(await readFile(inbox, 'utf8'));
      entries.push({
        from: 'team-lead',
        text,
        timestamp: new Date().toISOString(),
        color: 'blue',
        msgV: 1,
        msg_id: randomUUID(),
        type: 'message',
        read: false,
      });
      await replaceInbox(inbox, entries);
    });
    say(text);
  }
  say('done');
} else if (mode === 'inbox-reader') {
  const [inbox] = args;
  await ensureInbox(inbox);
  for (;;) {
    const last = stopping;
    await underLock(inbox, { lockfilePath: `${inbox}.lock`, ...INBOX_LOCK }, async () => {
      const entries = JSON.parse(await readFile(inbox, 'utf8'));
      if (entries.length === 0) return;
      for (const entry of entries) say(`taken ${entry.text}`);
      await replaceInbox(inbox, []);
    });
    if (last) break;
    await delay(3);
  }
  process.stdin.destroy();
  say('done');
} else if (mode === 'task-writer') {
  const [folder, label, count] = args;
  const anchor = path.join(folder, '.lock');
  await writeFile(anchor, '', { flag: 'wx' }).catch(() => {});
  for (let n = 1; n <= Number(count); n += 1) {
    const subject = `${label}-${n}`;
    const id = await underLock(anchor, TASKS_LOCK, async () => {
      let highest = 0;
      for (const name of readdirSync(folder)) {
        if (!name.endsWith('.json')) continue;
        const id = Number.parseInt(name.replace('.json', ''), 10);
        if (!Number.isNaN(id) && id > highest) highest = id;
      }
      let mark = 0;
      try {
        mark =
          Number.parseInt(
            (await readFile(path.join(folder, '.highwatermark'), 'utf8')).trim(),
            10,
          ) || 0;
      } catch {}
      const id = String(Math.max(highest, mark) + 1);
      const task = {
        id,
        subject,
        description: `made by ${label}`,
        status: 'pending',
        blocks: [],
        blockedBy: [],
      };
      await writeFile(path.join(folder, `${id}.json`), JSON.stringify(task, null, 2), 'utf8');
      return id;
    });
    say(`${id} ${subject}`);
  }
  say('done');
} else if (mode === 'task-updater') {
  const [folder] = args;
  let updates = 0;
  while (!stopping) {
    const names = readdirSync(folder).filter((name) => /^[0-9]+\.json$/.test(name));
    const name = names[Math.floor(Math.random() * names.length)];
    if (name === undefined) {
      await delay(5);
      continue;
    }
    const file = path.join(folder, name);
    await underLock(file, TASKS_LOCK, async () => {
      let task;
      try {
        task = JSON.parse(await readFile(file, 'utf8'));
      } catch {
        return; // a task still being written in place: Claude Code skips it too
      }
      task.status = task.status === 'pending' ? 'in_progress' : 'pending';
      // In place, as Claude Code writes tasks: readers can see it half-written.
      await writeFile(file, JSON.stringify(task, null, 2), 'utf8');
    });
    updates += 1;
  }
  process.stdin.destroy();
  say(`updated ${updates}`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
