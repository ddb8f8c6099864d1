import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openRun, type RunHandle } from '../run-handle/index.js';
import {
  type MemberStatus,
  type RunStatus,
  type RuntimeState,
  RuntimeStateSchema,
  type TeamPolicy,
  TeamPolicySchema,
} from '../schema/index.js';
import {
  createFileStore,
  type RunKeys,
  type RunPaths,
  runKeys,
  runPaths,
  type TeamkitStore,
} from '../storage/index.js';

/** A member of a fixture run: a name, optionally the lead and a status. */
export interface FixtureMember {
  name: string;
  isLead?: boolean;
  status?: MemberStatus;
}

/** Options for {@link createRunFixture}. */
export interface RunFixtureOptions {
  members?: FixtureMember[];
  policy?: Partial<Omit<TeamPolicy, 'bounds'>> & { bounds?: Partial<TeamPolicy['bounds']> };
  status?: RunStatus;
}

/** A temp Teamkit home with one run whose `state.json` is valid. */
export interface RunFixture {
  home: string;
  runId: string;
  paths: RunPaths;
  /** The run's store keys. */
  keys: RunKeys;
  /** The store of `home`: the file store rooted there, unless a store was given. */
  store: TeamkitStore;
  /** The fixture's run, opened on its store. */
  run: RunHandle;
  /** Rewrites state.json with a different run status, members or policy. */
  writeState(options: RunFixtureOptions): Promise<void>;
  /** Every file under the run folder with its content (lock folders and events excluded on request). */
  snapshot(options?: { withEvents?: boolean }): Promise<Map<string, string>>;
  cleanup(): Promise<void>;
}

/** Builds a valid RuntimeState document for tests. */
export function buildRuntimeState(runId: string, options: RunFixtureOptions = {}): RuntimeState {
  const members = options.members ?? [
    { name: 'lead', isLead: true },
    { name: 'writer' },
    { name: 'writer-2' },
  ];
  const { bounds, ...rest } = options.policy ?? {};
  return RuntimeStateSchema.parse({
    version: 1,
    runId,
    teamName: 'fixture-team',
    teamSource: { scope: 'inline' },
    hostId: 'test',
    createdAt: 1,
    updatedAt: 1,
    status: options.status ?? 'active',
    members: members.map((member) => ({
      name: member.name,
      role: member.isLead ? 'lead' : 'member',
      isLead: member.isLead ?? false,
      status: member.status ?? 'running',
    })),
    policy: TeamPolicySchema.parse({ ...rest, ...(bounds === undefined ? {} : { bounds }) }),
  });
}

/** Creates a temp home with one run; call `cleanup()` afterwards. */
export async function createRunFixture(
  options: RunFixtureOptions & {
    /** Keep the run in this store (as NATS does), not in the home's folder. */
    store?: TeamkitStore;
  } = {},
): Promise<RunFixture> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-run-'));
  const runId = randomUUID();
  const paths = runPaths(home, runId);
  const store = options.store ?? createFileStore({ root: home });
  const keys = runKeys(runId);
  const writeState = async (next: RunFixtureOptions) => {
    await store.put(keys.state, `${JSON.stringify(buildRuntimeState(runId, next), null, 2)}\n`);
  };
  await writeState(options);
  return {
    home,
    runId,
    paths,
    keys,
    store,
    run: openRun({ home, runId, store }),
    writeState,
    async snapshot({ withEvents = true } = {}) {
      const files = new Map<string, string>();
      const walk = async (folder: string): Promise<void> => {
        for (const entry of await readdir(folder, { withFileTypes: true })) {
          const full = path.join(folder, entry.name);
          if (entry.isDirectory()) {
            if (!entry.name.endsWith('.lock')) await walk(full);
          } else if (withEvents || full !== paths.events) {
            files.set(path.relative(paths.root, full), await readFile(full, 'utf8'));
          }
        }
      };
      await walk(paths.root);
      return files;
    },
    async cleanup() {
      await rm(home, { recursive: true, force: true });
    },
  };
}
