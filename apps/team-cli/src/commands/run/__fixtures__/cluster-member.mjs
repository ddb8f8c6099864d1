// A scripted member of a run shared by several machines, acting only through `team` (as
// an agent CLI does). Every step it takes goes to `<folder>/<member>.jsonl`. A command
// that fails (STORE_UNAVAILABLE while its machine is cut off) is noted and the loop goes
// on: the next pass reads the tasks again and finishes whatever the failed step left.
//
// Workers claim the pending tasks whose subject starts with their name or "anyone:",
// start, complete and offer them for review, and tell the lead. The lead approves what is
// in review; once `<folder>/finish` exists and every task is approved it asks everyone to
// shut down, waits until they have, and exits. Workers approve their shutdown and exit.
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';

const [folder] = process.argv.slice(2);
const me = process.env.TEAMKIT_MEMBER ?? '';
const log = path.join(folder, `${me}.jsonl`);
const note = (event) => appendFileSync(log, `${JSON.stringify({ at: Date.now(), ...event })}\n`);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function team(args) {
  return new Promise((resolve) => {
    execFile('team', [...args, '--json'], { timeout: 120_000 }, (error, stdout) => {
      let json;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      if (code !== 0) note({ event: 'failed', args, code, error: json?.error?.code ?? 'none' });
      resolve(code === 0 ? json : undefined);
    });
  });
}

async function readMail() {
  const mail = await team(['inbox', '--wait', '2', '--ack']);
  const messages = mail?.messages ?? [];
  for (const message of messages)
    note({ event: 'received', id: message.messageId, kind: message.kind, body: message.body });
  return messages;
}

async function lead() {
  for (;;) {
    await readMail();
    const listed = await team(['task', 'list']);
    if (listed === undefined) {
      await pause(500);
      continue;
    }
    for (const task of listed.tasks.filter((task) => task.status === 'in_review')) {
      if ((await team(['task', 'approve', task.id])) !== undefined)
        note({ event: 'approved', id: task.id });
    }
    const done = listed.tasks.every((task) => ['approved', 'in_review'].includes(task.status));
    if (existsSync(path.join(folder, 'finish')) && listed.tasks.length > 0 && done) break;
  }
  while ((await team(['shutdown', 'request', '--reason', 'every task is approved'])) === undefined)
    await pause(500);
  note({ event: 'shutdown-requested' });
  for (;;) {
    await readMail();
    const shown = await team(['run', 'status']);
    const others = shown?.status.members.filter((member) => !member.isLead) ?? [];
    if (shown !== undefined && others.every((m) => ['terminated', 'errored'].includes(m.status)))
      break;
  }
  note({ event: 'exit' });
}

async function worker() {
  const told = new Set();
  for (;;) {
    const messages = await readMail();
    if (messages.some((message) => message.kind === 'shutdown_request')) {
      while ((await team(['shutdown', 'approve'])) === undefined) await pause(500);
      note({ event: 'exit' });
      return;
    }
    const listed = await team(['task', 'list']);
    if (listed === undefined) {
      await pause(500);
      continue;
    }
    for (const task of listed.tasks) {
      const mine = task.subject.startsWith(`${me}:`) || task.subject.startsWith('anyone:');
      if (task.status === 'pending' && task.owner === undefined && mine) {
        // Of several claimers one wins; a claim whose answer was lost is found owned below.
        if ((await team(['task', 'claim', task.id])) === undefined) continue;
        note({ event: 'claimed', id: task.id });
        task.status = 'claimed';
        task.owner = me;
      }
      if (task.owner !== me) continue;
      if (task.status === 'claimed' && (await team(['task', 'start', task.id])) === undefined)
        continue;
      if (['claimed', 'in_progress'].includes(task.status)) {
        if ((await team(['task', 'complete', task.id])) === undefined) continue;
        task.status = 'completed';
      }
      if (task.status === 'completed' && (await team(['task', 'review', task.id])) === undefined)
        continue;
      if (['completed', 'in_review'].includes(task.status) && !told.has(task.id)) {
        if ((await team(['send', '--to', 'lead', `review ${task.id}`])) === undefined) continue;
        told.add(task.id);
        note({ event: 'offered', id: task.id });
      }
    }
  }
}

note({ event: 'start', pid: process.pid });
await (me === 'lead' ? lead() : worker());
