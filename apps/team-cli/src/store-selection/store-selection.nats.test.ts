import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import {
  findNatsServer,
  freeLoopbackPort as freePort,
  type NatsServerProcess,
  startNatsServer,
} from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempHome, runCli } from '../test-support/run-cli.js';
import { natsServerMissing, waitFor } from '../test-support/shared-store.js';
import { writeTestTeam } from '../test-support/test-team.js';

const missing = natsServerMissing();

let server: NatsServerProcess;
let secured: NatsServerProcess;
let folder: string;
let cleanup: () => Promise<void>;

interface DoctorStore {
  kind: string;
  ok: boolean;
  line: string;
  source: string;
}

async function doctorStore(
  home: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number; store: DoctorStore; text: string }> {
  const json = await runCli(['doctor', '--home', home, '--json', ...args], env, {
    timeoutMs: 60_000,
  });
  const text = await runCli(['doctor', '--home', home, ...args], env, { timeoutMs: 60_000 });
  return { code: json.code, store: json.json().store as DoctorStore, text: text.stdout };
}

describe.skipIf(missing !== undefined)('choosing the NATS store for a home', () => {
  beforeAll(async () => {
    server = await startNatsServer();
    secured = await startNatsServer({ args: ['--user', 'teamkit', '--pass', 's3cret'] });
    ({ home: folder, cleanup } = await createTempHome());
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await secured?.close();
    await cleanup?.();
  }, 60_000);

  it('puts a run started with TEAMKIT_STORE in the server, where another home finds it', async () => {
    const home = path.join(folder, 'a');
    const other = path.join(folder, 'b');
    await mkdir(other, { recursive: true });
    await writeTestTeam(home, { id: 'solo', lead: 'lead', members: ['lead'] });
    const env = { TEAMKIT_STORE: server.url };
    const started = await runCli(
      ['run', 'start', 'solo', '--home', home, '--agent-cmd', 'sleep 600', '--json'],
      env,
      { timeoutMs: 60_000 },
    );
    expect(started.code, started.stdout + started.stderr).toBe(0);
    const runId = started.json().runId as string;
    try {
      expect(existsSync(path.join(home, 'runtime', runId, 'state.json'))).toBe(false);
      const seen = await runCli(['run', 'status', runId, '--home', other, '--json'], env);
      expect(seen.code, seen.stdout + seen.stderr).toBe(0);
      expect(seen.json().status).toMatchObject({ runId, teamName: 'solo' });
      // The listing of working runs (the start-up fast path) reads the same store.
      const listed = await runCli(['run', 'status', '--home', other, '--json'], env);
      expect(listed.json().runs, listed.stdout + listed.stderr).toEqual([
        expect.objectContaining({ runId }),
      ]);
      // Without TEAMKIT_STORE the same home knows nothing of the run.
      const local = await runCli(['run', 'status', runId, '--home', home, '--json'], {});
      expect(local.json().error).toMatchObject({ code: 'RUN_NOT_FOUND' });
    } finally {
      await runCli(['run', 'stop', runId, '--force', '--home', home, '--json'], env, {
        timeoutMs: 60_000,
      });
    }
  });

  it('reads the store from the global config, with a user and password in the URL', async () => {
    const home = path.join(folder, 'config');
    await mkdir(home, { recursive: true });
    const url = secured.url.replace('nats://', 'nats://teamkit:s3cret@');
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ version: 1, settings: { 'store.url': url } }),
    );
    const ok = await doctorStore(home, {});
    expect(ok.code).toBe(0);
    expect(ok.store).toMatchObject({ kind: 'nats', ok: true, source: 'setting' });
    expect(ok.text).toContain(
      `nats: ${secured.url} (the store.url setting): connected, JetStream enabled`,
    );
    expect(ok.text).not.toContain('s3cret');

    const wrong = await doctorStore(home, {
      TEAMKIT_STORE: secured.url.replace('nats://', 'nats://teamkit:wrong@'),
    });
    expect(wrong.code).toBe(5);
    expect(wrong.store).toMatchObject({ ok: false, source: 'environment' });
    expect(wrong.text).toMatch(/FAILED: the server refused these credentials/);
    // Any other command fails the same way before it does anything.
    const listed = await runCli(['run', 'list', '--home', home, '--json'], {
      TEAMKIT_STORE: secured.url.replace('nats://', 'nats://teamkit:wrong@'),
    });
    expect(listed.json().error).toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('never lets a project config point the runs at a server', async () => {
    const home = path.join(folder, 'user');
    const project = path.join(folder, 'project');
    await mkdir(path.join(project, '.teamkit'), { recursive: true });
    await mkdir(home, { recursive: true });
    await writeFile(
      path.join(project, '.teamkit', 'config.json'),
      JSON.stringify({ version: 1, settings: { store: { url: server.url } } }),
    );
    const shown = await doctorStore(home, {}, ['--project', project]);
    expect(shown.code).toBe(0);
    expect(shown.store).toMatchObject({ kind: 'file', source: 'default' });
    expect(shown.text).toMatch(/Ignored red-line settings[\s\S]*store\.url/);
  });

  it('opens streams made with another replica count as they are, and doctor says so', async () => {
    const home = path.join(folder, 'replicas');
    await mkdir(home, { recursive: true });
    const env = { TEAMKIT_STORE: server.url };
    const made = await doctorStore(home, env);
    expect(made.code).toBe(0);
    expect(made.text).toContain('connected, JetStream enabled; streams have 1 replica');
    // Asking for three on streams that have one: every command still works.
    const three = { ...env, TEAMKIT_STORE_REPLICAS: '3' };
    const listed = await runCli(['run', 'list', '--home', home, '--json'], three);
    expect(listed.code, listed.stdout + listed.stderr).toBe(0);
    const shown = await doctorStore(home, three);
    expect(shown.code).toBe(0);
    expect(shown.store).toMatchObject({
      ok: true,
      replicas: { wanted: 3, streams: { KV_teamkit: 1, 'teamkit-logs': 1 } },
    });
    expect(shown.text).toContain(
      'TEAMKIT_STORE_REPLICAS is 3 but KV_teamkit has 1, teamkit-logs has 1 (made before, used as they are',
    );
    const bad = await runCli(['run', 'list', '--home', home, '--json'], {
      ...env,
      TEAMKIT_STORE_REPLICAS: '2',
    });
    expect(bad.code).toBe(2);
    expect(bad.json().error).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('says plainly when the server cannot be reached or has no JetStream', async () => {
    const home = path.join(folder, 'doctor');
    await mkdir(home, { recursive: true });
    const closedPort = await freePort();
    const unreachable = await doctorStore(home, {
      TEAMKIT_STORE: `nats://127.0.0.1:${closedPort}`,
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.store.ok).toBe(false);
    expect(unreachable.text).toContain(
      `nats: nats://127.0.0.1:${closedPort} (TEAMKIT_STORE): FAILED: cannot reach it`,
    );

    // A server without JetStream (no -js), started here and stopped at the end.
    const program = findNatsServer();
    if (!program.found) throw new Error(program.reason);
    const port = await freePort();
    const plain = spawn(program.path, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    try {
      await waitFor('the plain server to listen', async () =>
        (await new Promise<boolean>((resolve) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.end();
            resolve(true);
          });
          socket.once('error', () => resolve(false));
        }))
          ? true
          : undefined,
      );
      const noJetStream = await doctorStore(home, { TEAMKIT_STORE: `nats://127.0.0.1:${port}` });
      expect(noJetStream.store.ok).toBe(false);
      expect(noJetStream.text).toContain('JetStream is not enabled: start nats-server with -js');
    } finally {
      plain.kill('SIGKILL');
    }
  });
});
