import { execFile, spawnSync } from 'node:child_process';
import { findNetworkNamespaces } from './find-network-namespaces.js';

/** One "machine" of a {@link NetworkLab}: a network namespace with one address. */
export interface LabMachine {
  readonly name: string;
  /** The namespace's name, unique to this test process. */
  readonly namespace: string;
  /** Its address on the lab's network (`10.77.0.<n>`). */
  readonly address: string;
}

/** What a command run inside a machine printed and how it ended. */
export interface LabRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Several "machines" on one box: a network namespace each, all linked to one bridge in a
 * private hub namespace. Nothing is added to the box's own namespace, so its addresses and
 * ports never clash with the machine's or another test's.
 */
export interface NetworkLab {
  readonly machines: readonly LabMachine[];
  machine(name: string): LabMachine;
  /** The argument list that runs `argv` inside a machine (`ip netns exec <ns> ...`). */
  command(name: string, argv: readonly string[]): string[];
  /** Runs `argv` inside a machine and waits for it. */
  run(
    name: string,
    argv: readonly string[],
    options?: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string },
  ): Promise<LabRun>;
  /** Cuts a machine off the network (its cable pulled: the hub side of its link goes down). */
  cut(name: string): Promise<void>;
  /** Plugs a cut machine back in. */
  join(name: string): Promise<void>;
  /** The pids of the processes inside a machine. */
  pids(name: string): number[];
  /** Kills every process inside the lab's namespaces and removes them. */
  close(): Promise<void>;
}

const SUBNET = '10.77.0';

function ipRun(ip: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(ip, [...args], { timeout: 30_000 }, (error, _stdout, stderr) => {
      if (error === null) resolve();
      else reject(new Error(`ip ${args.join(' ')} failed: ${stderr.trim() || error.message}`));
    });
  });
}

/**
 * Makes a lab of `names` machines (at most 200). Namespaces are named after this process's
 * pid; `close` (and, as a last resort, this process's exit) removes them. Throws when
 * `ip netns` is missing or not permitted (check {@link findNetworkNamespaces} first).
 */
export async function createNetworkLab(names: readonly string[]): Promise<NetworkLab> {
  const found = findNetworkNamespaces({ required: true });
  if (!found.found) throw new Error(found.reason);
  const { ip } = found;
  const prefix = `tk${process.pid}`;
  const hub = `${prefix}-hub`;
  const machines: LabMachine[] = names.map((name, index) => ({
    name,
    namespace: `${prefix}-${name}`,
    address: `${SUBNET}.${index + 1}`,
  }));
  const made: string[] = [];
  const pids = (namespace: string): number[] => {
    const listed = spawnSync(ip, ['netns', 'pids', namespace], { encoding: 'utf8' });
    return listed.stdout
      .split('\n')
      .map(Number)
      .filter((pid) => Number.isSafeInteger(pid) && pid > 1);
  };
  let closed = false;
  const removeAll = () => {
    if (closed) return;
    closed = true;
    for (const namespace of made) {
      for (const pid of pids(namespace)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      spawnSync(ip, ['netns', 'delete', namespace]);
    }
  };
  process.once('exit', removeAll);
  const hubSide = (machine: LabMachine) => `v-${machine.name}`.slice(0, 15);
  try {
    await ipRun(ip, ['netns', 'add', hub]);
    made.push(hub);
    await ipRun(ip, ['-n', hub, 'link', 'set', 'lo', 'up']);
    await ipRun(ip, ['-n', hub, 'link', 'add', 'br0', 'type', 'bridge']);
    await ipRun(ip, ['-n', hub, 'link', 'set', 'br0', 'up']);
    for (const machine of machines) {
      await ipRun(ip, ['netns', 'add', machine.namespace]);
      made.push(machine.namespace);
      const end = hubSide(machine);
      await ipRun(ip, [
        '-n',
        hub,
        'link',
        'add',
        end,
        'type',
        'veth',
        'peer',
        'name',
        'eth0',
        'netns',
        machine.namespace,
      ]);
      await ipRun(ip, ['-n', hub, 'link', 'set', end, 'master', 'br0', 'up']);
      await ipRun(ip, ['-n', machine.namespace, 'link', 'set', 'lo', 'up']);
      await ipRun(ip, [
        '-n',
        machine.namespace,
        'addr',
        'add',
        `${machine.address}/24`,
        'dev',
        'eth0',
      ]);
      await ipRun(ip, ['-n', machine.namespace, 'link', 'set', 'eth0', 'up']);
    }
  } catch (error) {
    removeAll();
    process.off('exit', removeAll);
    throw error;
  }
  const machine = (name: string): LabMachine => {
    const found = machines.find((candidate) => candidate.name === name);
    if (found === undefined) throw new Error(`the lab has no machine ${name}`);
    return found;
  };
  const command = (name: string, argv: readonly string[]) => [
    ip,
    'netns',
    'exec',
    machine(name).namespace,
    ...argv,
  ];
  return {
    machines,
    machine,
    command,
    run(name, argv, options = {}) {
      const [program, ...args] = command(name, argv);
      return new Promise((resolve) => {
        execFile(
          program as string,
          args,
          {
            env: options.env ?? process.env,
            timeout: options.timeoutMs ?? 60_000,
            cwd: options.cwd,
            maxBuffer: 32 * 1024 * 1024,
          },
          (error, stdout, stderr) => {
            const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
            resolve({ code, stdout, stderr });
          },
        );
      });
    },
    cut: (name) => ipRun(ip, ['-n', hub, 'link', 'set', hubSide(machine(name)), 'down']),
    join: (name) => ipRun(ip, ['-n', hub, 'link', 'set', hubSide(machine(name)), 'up']),
    pids: (name) => pids(machine(name).namespace),
    async close() {
      removeAll();
      process.off('exit', removeAll);
    },
  };
}
