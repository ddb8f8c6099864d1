import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findNatsServer } from '../nats-server/find-nats-server.js';
import { freeLoopbackPort as freePort } from '../nats-server/free-port.js';
import { guardianScript } from '../nats-server/start-nats-server.js';
import type { NetworkLab } from './network-lab.js';

/** One server of a {@link NatsCluster}, inside its lab machine or on 127.0.0.1. */
export interface ClusterNode {
  /** Its server name (and the lab machine it runs on). */
  readonly name: string;
  /** `nats://<its address>:<port>`: in a lab, reachable from every lab machine. */
  readonly url: string;
  readonly pid: number | undefined;
  readonly running: boolean;
  log(): string;
  /** Stops the server gracefully (SIGTERM) and waits for it to end. */
  stop(): Promise<void>;
  /** Kills the server (SIGKILL), as a crash, and waits for it to end. */
  kill(): Promise<void>;
}

/** A JetStream cluster of nats-server processes, one per lab machine. */
export interface NatsCluster {
  readonly nodes: readonly ClusterNode[];
  /** Every node's URL, comma-separated, as `TEAMKIT_STORE` takes them. */
  readonly urls: string;
  /** Stops every node and removes their store folders. */
  close(): Promise<void>;
}

const CLIENT_PORT = 4222;
const ROUTE_PORT = 6222;

/** Where one node listens, for clients and for the other nodes' routes. */
interface Placement {
  name: string;
  /** The argument list that runs a program where the node lives. */
  command: (argv: readonly string[]) => string[];
  address: string;
  clientPort: number;
  routePort: number;
}

interface Running {
  guardian: ChildProcess;
  pid: number | undefined;
  exited: Promise<void>;
}

async function startNode(
  program: string,
  node: Placement,
  peers: readonly Placement[],
  storeDir: string,
  readyTimeoutMs: number,
): Promise<ClusterNode> {
  const { name, address } = node;
  const args = [
    ...node.command([program]),
    '-n',
    name,
    '-a',
    address,
    '-p',
    String(node.clientPort),
    '-js',
    '-sd',
    storeDir,
    '--cluster_name',
    'teamkit-lab',
    '--cluster',
    `nats://${address}:${node.routePort}`,
    '--routes',
    peers.map((peer) => `nats://${peer.address}:${peer.routePort}`).join(','),
  ];
  let log = '';
  const guardian = spawn(process.execPath, [guardianScript(), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const running: Running = {
    guardian,
    pid: undefined,
    exited: new Promise((resolve) => guardian.once('close', () => resolve())),
  };
  let alive = true;
  void running.exited.then(() => {
    alive = false;
  });
  // `ip netns exec` replaces itself with the server, so the child's pid is the server's.
  guardian.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const pid = /pid ([0-9]+)/.exec(chunk)?.[1];
    if (pid !== undefined) running.pid = Number(pid);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      guardian.stdin?.end();
      reject(new Error(`nats-server ${name} was not ready within ${readyTimeoutMs} ms:\n${log}`));
    }, readyTimeoutMs);
    guardian.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      if (log.includes('Server is ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void running.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`nats-server ${name} ended before it was ready:\n${log}`));
    });
  });
  const end = async (signal: 'SIGTERM' | 'SIGKILL') => {
    if (!alive) return;
    if (running.pid !== undefined) {
      try {
        process.kill(running.pid, signal);
      } catch {
        // already gone
      }
    } else guardian.stdin?.end();
    await running.exited;
  };
  return {
    name,
    url: `nats://${address}:${node.clientPort}`,
    get pid() {
      return alive ? running.pid : undefined;
    },
    get running() {
      return alive;
    },
    log: () => log,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}

/** Options of {@link startNatsCluster}. */
export interface StartNatsClusterOptions {
  /**
   * Runs each node inside the lab machine of its name, on that machine's address (ports
   * 4222 and 6222, private to the machine). Without a lab every node listens on 127.0.0.1,
   * on free ports.
   */
  lab?: NetworkLab;
  /** How long to wait for each node's "Server is ready"; 30 000 ms by default. */
  readyTimeoutMs?: number;
}

/**
 * Starts a nats-server with JetStream (file storage in a temp folder) per name, routed to
 * each other as one cluster. The nodes report ready before the cluster has elected its
 * JetStream leader: the first store opened on it retries while JetStream is unavailable.
 * A guardian process stops each node when this process ends, however it ends.
 */
export async function startNatsCluster(
  names: readonly string[],
  options: StartNatsClusterOptions = {},
): Promise<NatsCluster> {
  const found = findNatsServer({ required: true });
  if (!found.found) throw new Error(found.reason);
  const { lab } = options;
  const placements: Placement[] = [];
  for (const name of names) {
    placements.push(
      lab === undefined
        ? {
            name,
            command: (argv) => [...argv],
            address: '127.0.0.1',
            clientPort: await freePort(),
            routePort: await freePort(),
          }
        : {
            name,
            command: (argv) => lab.command(name, argv),
            address: lab.machine(name).address,
            // Fixed but private: each node has a namespace, and an address, of its own.
            clientPort: CLIENT_PORT,
            routePort: ROUTE_PORT,
          },
    );
  }
  const folders: string[] = [];
  const nodes: ClusterNode[] = [];
  const close = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await Promise.all(
      folders.map((folder) => rm(folder, { recursive: true, force: true, maxRetries: 3 })),
    );
  };
  try {
    const started = placements.map(async (placement) => {
      const folder = await mkdtemp(path.join(os.tmpdir(), `teamkit-nats-${placement.name}-`));
      folders.push(folder);
      const peers = placements.filter((peer) => peer !== placement);
      const node = await startNode(
        found.path,
        placement,
        peers,
        folder,
        options.readyTimeoutMs ?? 30_000,
      );
      nodes.push(node);
    });
    await Promise.all(started);
  } catch (error) {
    await close();
    throw error;
  }
  nodes.sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name));
  return { nodes, urls: nodes.map((node) => node.url).join(','), close };
}
