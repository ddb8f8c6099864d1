import { readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The machine a run was measured on. */
export interface MachineInfo {
  node: string;
  v8: string;
  platform: string;
  release: string;
  arch: string;
  cpuModel: string;
  cores: number;
  totalMemoryBytes: number;
  /** 1, 5 and 15 minute load averages when the run started (0s where unsupported). */
  loadAverage: number[];
  /** Filesystem type of the temp dir the benchmarks write to, when it can be told. */
  tempDirFilesystem: string | undefined;
}

function unescapeMountPath(value: string): string {
  return value.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

/** The filesystem type of `folder` from /proc/mounts (Linux only; undefined elsewhere). */
export function filesystemOf(folder: string): string | undefined {
  let mounts: string;
  let target: string;
  try {
    mounts = readFileSync('/proc/mounts', 'utf8');
    target = realpathSync(folder);
  } catch {
    return undefined;
  }
  let best: { mountPoint: string; type: string } | undefined;
  for (const line of mounts.split('\n')) {
    const [, rawMountPoint, type] = line.split(' ');
    if (rawMountPoint === undefined || type === undefined) continue;
    const mountPoint = unescapeMountPath(rawMountPoint);
    const inside =
      target === mountPoint ||
      target.startsWith(mountPoint.endsWith(path.sep) ? mountPoint : mountPoint + path.sep);
    if (inside && (best === undefined || mountPoint.length >= best.mountPoint.length)) {
      best = { mountPoint, type };
    }
  }
  return best?.type;
}

/** Node, CPU, memory, OS and temp-dir filesystem of this machine; no host name or user. */
export function describeMachine(): MachineInfo {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: process.platform,
    release: os.release(),
    arch: process.arch,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    totalMemoryBytes: os.totalmem(),
    loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
    tempDirFilesystem: filesystemOf(os.tmpdir()),
  };
}
