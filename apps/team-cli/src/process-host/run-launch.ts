import { MemberNameSchema } from '@teamkit/team-core/schema';
import {
  createDocument,
  createFileStore,
  readDocument,
  runKeys,
  type TeamkitStore,
} from '@teamkit/team-core/storage';
import { z } from 'zod';
import { AGENT_PRESET_NAMES } from '../agent-presets/index.js';

/** How one member is started: an agent preset, or a custom `--agent-cmd` template. */
export const MemberLaunchSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('preset'),
    preset: z.enum(AGENT_PRESET_NAMES),
    /** The CLI's absolute path as run start found it, so every later start runs the same one. */
    program: z.string().min(1).max(4_096),
    model: z.string().min(1).max(200).optional(),
  }),
  z.strictObject({
    kind: z.literal('command'),
    /** The `--agent-cmd` template, placeholders unexpanded. */
    template: z.string().min(1).max(8_192),
    /** `turns`: one process per turn (Teamkit runs it when mail arrives); `long-lived`: one for the run. */
    mode: z.enum(['turns', 'long-lived']),
    model: z.string().min(1).max(200).optional(),
  }),
]);

/** How one member is started. */
export type MemberLaunch = z.infer<typeof MemberLaunchSchema>;

/**
 * How every member of a run is started, recorded with the run before any member starts
 * (`runtime/<run>/launch.json`), so every process that starts members later (the
 * background supervisor, `team run resume`) starts them exactly as `team run start` would.
 */
export const RunLaunchSchema = z.strictObject({
  version: z.literal(1),
  members: z.record(MemberNameSchema, MemberLaunchSchema),
});

/** How every member of a run is started. */
export type RunLaunch = z.infer<typeof RunLaunchSchema>;

/** The store key of a run's launch record. */
export function runLaunchKey(runId: string): string {
  return `${runKeys(runId).root}/launch.json`;
}

/** Records how a run's members start; a run has one record, written once (`ALREADY_EXISTS`). */
export async function recordRunLaunch(
  home: string,
  runId: string,
  launch: RunLaunch,
  store: TeamkitStore = createFileStore({ root: home }),
): Promise<void> {
  await createDocument(store, runLaunchKey(runId), RunLaunchSchema, launch);
}

/**
 * A run's launch record, or `undefined` for a run started before there were records (its
 * members start with the host's default command). A corrupt record is `CORRUPT_DOCUMENT`.
 */
export async function readRunLaunch(
  home: string,
  runId: string,
  store: TeamkitStore = createFileStore({ root: home }),
): Promise<RunLaunch | undefined> {
  return (await readDocument(store, runLaunchKey(runId), RunLaunchSchema))?.value;
}
