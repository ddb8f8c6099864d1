import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import { type Artifact, ArtifactNameSchema, ArtifactSchema } from '../schema/index.js';
import { findParticipant, readRunState, WRITABLE_RUN_STATUSES } from '../state/index.js';
import { createDocument, readDocument, runKeys, type TeamkitStore } from '../storage/index.js';

/** The largest artifact body, in UTF-8 bytes: large outputs go here, not into messages, but not without bound. */
export const MAX_ARTIFACT_BYTES = 512 * 1024;
/** The most versions one artifact name keeps. */
export const MAX_ARTIFACT_VERSIONS = 1_000;
const PUBLISH_ATTEMPTS = 32;

/** One version's facts, without its body. */
export type ArtifactSummary = Omit<Artifact, 'body' | 'version'>;

/** One artifact name and its newest version. */
export interface ArtifactListing {
  name: string;
  versions: number;
  latest: ArtifactSummary;
}

/** What an author publishes. */
export interface PublishArtifactInput {
  name: string;
  /** The Markdown text. */
  body: string;
  title?: string;
}

/** Where a run's artifacts live, and the seams. */
export interface RunArtifactsOptions {
  home: string;
  runId: string;
  /** The keyed store (default: the file store rooted at `home`). */
  /** Where the run's state lives (required: the front door chose it). */
  store: TeamkitStore;
  now?: () => number;
}

/** The named Markdown deliverables of one run. */
export interface RunArtifacts {
  /**
   * Publishes the next version of `name` as `author` (a live member of the run, checked
   * against its state): version 1 for a new name, else the newest plus one. Never
   * overwrites: two authors publishing at once get two versions.
   */
  publish(author: string, input: PublishArtifactInput): Promise<ArtifactSummary>;
  /** A version of `name` (the newest by default); `UNKNOWN_ARTIFACT` when there is none. */
  read(name: string, revision?: number): Promise<Artifact>;
  /** Every artifact of the run with its newest version, by name. */
  list(): Promise<ArtifactListing[]>;
}

function summary(artifact: Artifact): ArtifactSummary {
  const { body: _body, version: _version, ...rest } = artifact;
  return rest;
}

function checkName(name: unknown): string {
  const parsed = ArtifactNameSchema.safeParse(name);
  if (!parsed.success) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Bad artifact name ${JSON.stringify(name)}: ${describeIssues(parsed.error).join('; ')}.`,
      { details: { name: typeof name === 'string' ? name : typeof name } },
    );
  }
  return parsed.data;
}

/**
 * Creates the artifacts of one run on the keyed store: each version is one immutable
 * document `runtime/<runId>/artifacts/<name>/<revision>.json`, created exclusively, so a
 * version is written whole or not at all and never replaced. Names are checked before
 * they become keys; bodies are capped at {@link MAX_ARTIFACT_BYTES}.
 */
export function createRunArtifacts(options: RunArtifactsOptions): RunArtifacts {
  const { home, runId } = options;
  const keys = runKeys(runId);
  const folder = `${keys.root}/artifacts`;
  const { store } = options;
  const now = options.now ?? Date.now;

  async function revisionsOf(name: string): Promise<number[]> {
    return (await store.list(`${folder}/${name}`))
      .map((entry) => /^([1-9][0-9]{0,5})\.json$/.exec(entry)?.[1])
      .filter((value): value is string => value !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  async function readVersion(name: string, revision: number): Promise<Artifact | undefined> {
    return (await readDocument(store, `${folder}/${name}/${revision}.json`, ArtifactSchema))?.value;
  }

  return {
    async publish(author, input) {
      const name = checkName(input?.name);
      if (typeof input.body !== 'string') {
        throw new TeamkitError('INVALID_INPUT', 'An artifact body is Markdown text.', {
          details: { name },
        });
      }
      const bytes = Buffer.byteLength(input.body, 'utf8');
      if (bytes > MAX_ARTIFACT_BYTES) {
        throw new TeamkitError(
          'PAYLOAD_TOO_LARGE',
          `Artifact ${name} is ${bytes} bytes; the cap is ${MAX_ARTIFACT_BYTES}. Split it into several artifacts.`,
          { details: { name, bytes, max: MAX_ARTIFACT_BYTES } },
        );
      }
      const state = await readRunState(home, runId, { store });
      const member = findParticipant(state, author);
      if (member.status === 'terminated' || !WRITABLE_RUN_STATUSES.includes(state.status)) {
        throw new TeamkitError(
          'RUN_NOT_ACTIVE',
          `Run ${runId} is ${state.status}${member.status === 'terminated' ? ` and ${author} has stopped` : ''}; artifacts are published while it works.`,
          { details: { runId, status: state.status, author } },
        );
      }
      for (let attempt = 0; attempt < PUBLISH_ATTEMPTS; attempt++) {
        const revision = ((await revisionsOf(name)).at(-1) ?? 0) + 1;
        if (revision > MAX_ARTIFACT_VERSIONS) {
          throw new TeamkitError(
            'BOUND_EXCEEDED',
            `Artifact ${name} already has ${MAX_ARTIFACT_VERSIONS} versions; publish under a new name.`,
            { details: { name, max: MAX_ARTIFACT_VERSIONS } },
          );
        }
        const artifact: Artifact = {
          version: 1,
          runId,
          name,
          revision,
          author,
          createdAt: now(),
          ...(input.title === undefined ? {} : { title: input.title }),
          body: input.body,
          bytes,
        };
        try {
          await createDocument(
            store,
            `${folder}/${name}/${revision}.json`,
            ArtifactSchema,
            artifact,
          );
          return summary(artifact);
        } catch (error) {
          // Someone published this version first: ours is the next one.
          if (!isTeamkitError(error, 'ALREADY_EXISTS')) throw error;
        }
      }
      throw new TeamkitError(
        'LOCK_TIMEOUT',
        `Artifact ${name} kept changing while publishing; try again.`,
        { details: { name } },
      );
    },
    async read(rawName, revision) {
      const name = checkName(rawName);
      const chosen = revision ?? (await revisionsOf(name)).at(-1);
      const artifact = chosen === undefined ? undefined : await readVersion(name, chosen);
      if (artifact === undefined) {
        throw new TeamkitError(
          'UNKNOWN_ARTIFACT',
          `Run ${runId} has no artifact ${name}${revision === undefined ? '' : ` version ${revision}`}.`,
          { details: { runId, name, ...(revision === undefined ? {} : { revision }) } },
        );
      }
      return artifact;
    },
    async list() {
      const listings: ArtifactListing[] = [];
      for (const name of await store.list(folder)) {
        if (!ArtifactNameSchema.safeParse(name).success) continue;
        const revisions = await revisionsOf(name);
        const newest = revisions.at(-1);
        const latest = newest === undefined ? undefined : await readVersion(name, newest);
        if (latest !== undefined) {
          listings.push({ name, versions: revisions.length, latest: summary(latest) });
        }
      }
      return listings;
    },
  };
}
