import { randomUUID } from 'node:crypto';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { z } from 'zod';

const MachineSchema = z.strictObject({ version: z.literal(1), id: z.string() });
const MACHINE_KEY = 'machine.json';

/**
 * This Teamkit home's machine id when its runs live in a shared store (`runs` is not the
 * home's file store: `TEAMKIT_STORE`), else `undefined`: with the file store every member runs on this machine. The id is made
 * once and kept in the home's own folder (never in the shared store), so two homes are two
 * machines even on one box.
 */
export async function machineIdOf(home: string, runs: TeamkitStore): Promise<string | undefined> {
  if (runs.kind === 'file') return undefined;
  const { isTeamkitError } = await import('@teamkit/team-core/errors');
  const { createDocument, createFileStore, readDocument } = await import(
    '@teamkit/team-core/storage'
  );
  const store = createFileStore({ root: home });
  const stored = await readDocument(store, MACHINE_KEY, MachineSchema);
  if (stored !== undefined) return stored.value.id;
  const id = `m-${randomUUID().slice(0, 18)}`;
  try {
    await createDocument(store, MACHINE_KEY, MachineSchema, { version: 1, id });
    return id;
  } catch (error) {
    // Another command of this home made it first: use theirs.
    if (!isTeamkitError(error, 'ALREADY_EXISTS')) throw error;
    return (await readDocument(store, MACHINE_KEY, MachineSchema))?.value.id;
  }
}
