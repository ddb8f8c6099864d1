// A scripted member of a run shared by several machines, acting only through `team` (as
// an agent CLI does). Every step it takes goes to `<folder>/<member>.jsonl`. It waits for
// mail with `team inbox --wait` and does what the mail says; a command that fails (with
// STORE_UNAVAILABLE while its machine is cut off) is noted and tried again.
//
// Workers: "task <id>" → claim it (several may be told; one wins), start, complete, offer
// it for review and tell the lead "review <id>"; a shutdown request → approve it and exit.
// The lead: "review <id>" → approve the task; "finish" → ask everyone to shut down, wait
// until they have, and exit.
import { execFile } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const [folder] = process.argv.slice(2);
const me = process.env.TEAMKIT_MEMBER ?? '';
const log = path.join(folder, `${me}.jsonl`);
const note = (event) => appendFileSync(log, `${JSON.stringify({ at: Date.now(), ...event })}\n`);
// The exit code of a refused move (the task is someone else's, or already past it).
const CONFLICT = 4;

/** `team <args> --json`: `{ ok, code, json }`; a failure is noted with its error code. */
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
      if (code !== 0) {
        const { code: error = 'none', message = '' } = json?.error ?? {};
        note({ event: 'failed', args, code, error, message: message.slice(0, 400) });
      }
      resolve({ ok: code === 0, code, json });
    });
  });
}

async function readMail(seconds = 30) {
  const mail = await team(['inbox', '--wait', String(seconds), '--ack']);
  if (!mail.ok) {
    await delay(500);
    return [];
  }
  const messages = mail.json.messages ?? [];
  for (const message of messages)
    note({ event: 'received', id: message.messageId, kind: message.kind, body: message.body });
  return messages;
}

/** Runs `args` until it succeeds; true, or false when it was refused (CONFLICT). */
async function untilDone(args) {
  for (;;) {
    const ran = await team(args);
    if (ran.ok) return true;
    if (ran.code === CONFLICT) return false;
    await delay(500);
  }
}

const NEXT = { claimed: 'start', in_progress: 'complete', completed: 'review' };

/** Takes task `id` through to review unless another worker claimed it first. */
async function work(id) {
  const claim = await team(['task', 'claim', id]);
  let status;
  if (claim.ok) {
    note({ event: 'claimed', id });
    status = 'claimed';
  }
  while (status !== 'in_review' && status !== 'approved') {
    if (status === undefined) {
      // An answer was lost or refused: the task itself says where it is and whose it is.
      const got = await team(['task', 'get', id]);
      if (!got.ok) {
        await delay(500);
        continue;
      }
      const { task } = got.json;
      if (task.owner === undefined && task.status === 'pending') {
        const again = await team(['task', 'claim', id]);
        if (again.ok) note({ event: 'claimed', id });
        continue;
      }
      if (task.owner !== me) {
        note({ event: 'lost', id, owner: task.owner });
        return;
      }
      status = task.status;
      continue;
    }
    const moved = await team(['task', NEXT[status], id]);
    status = moved.ok ? moved.json.task.status : undefined;
  }
  await untilDone(['send', '--to', 'lead', `review ${id}`]);
  note({ event: 'offered', id });
}

async function worker() {
  for (;;) {
    for (const message of await readMail()) {
      if (message.kind === 'shutdown_request') {
        await untilDone(['shutdown', 'approve']);
        note({ event: 'exit' });
        return;
      }
      const id = /^task (\S+)$/.exec(message.body ?? '')?.[1];
      if (id !== undefined) await work(id);
    }
  }
}

async function lead() {
  for (let finish = false; !finish; ) {
    for (const message of await readMail()) {
      const id = /^review (\S+)$/.exec(message.body ?? '')?.[1];
      if (id !== undefined && (await untilDone(['task', 'approve', id])))
        note({ event: 'approved', id });
      if (message.body === 'finish') finish = true;
    }
  }
  await untilDone(['shutdown', 'request', '--reason', 'every task is approved']);
  note({ event: 'shutdown-requested' });
  for (;;) {
    await readMail(2);
    const shown = await team(['run', 'status']);
    const others = shown.json?.status.members.filter((member) => !member.isLead) ?? [];
    if (shown.ok && others.every((m) => ['terminated', 'errored'].includes(m.status))) break;
  }
  note({ event: 'exit' });
}

note({ event: 'start', pid: process.pid });
await (me === 'lead' ? lead() : worker());
