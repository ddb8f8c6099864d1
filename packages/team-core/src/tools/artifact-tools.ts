import { z } from 'zod';
import type { ArtifactSummary } from '../artifacts/index.js';
import { MAX_ARTIFACT_BYTES } from '../artifacts/index.js';
import { defineTeamTool } from './team-tool.js';

const ArtifactSummarySchema = z.object({
  runId: z.string(),
  name: z.string(),
  revision: z.number(),
  author: z.string(),
  createdAt: z.number(),
  title: z.string().optional(),
  bytes: z.number(),
});

const artifactName = () =>
  z
    .string()
    .min(1)
    .max(64)
    .describe(
      'The artifact name: lowercase letters and digits joined by "-", "_" or ".", e.g. "design".',
    );

function summaryLine(artifact: ArtifactSummary): string {
  return `${artifact.name} v${artifact.revision} by ${artifact.author}, ${artifact.bytes} bytes${artifact.title === undefined ? '' : ` — ${artifact.title}`}`;
}

/** `artifact_put`: publishes the next version of a named Markdown deliverable. */
export const artifactPutTool = defineTeamTool({
  name: 'artifact_put',
  title: 'Publish a run artifact',
  description: `Publish a named Markdown deliverable of the run (a design, findings, a review) instead of sending it as a message; others read it with {artifact_get}. Publishing a name again adds a new version, never overwrites. At most ${MAX_ARTIFACT_BYTES / 1024} KiB.`,
  input: z.object({
    name: artifactName(),
    body: z.string().describe('The Markdown text.'),
    title: z.string().max(200).optional().describe('A one-line title.'),
  }),
  output: z.object({ artifact: ArtifactSummarySchema }),
  roles: ['member', 'user'],
  readOnly: false,
  operation: (input) => `publish artifact ${input.name}`,
  async handler(input, context) {
    const artifact = await (await context.client()).publishArtifact({
      name: input.name,
      body: input.body,
      ...(input.title === undefined ? {} : { title: input.title }),
    });
    return { artifact };
  },
  text: ({ artifact }) => `published ${summaryLine(artifact)}`,
});

/** `artifact_get`: one version of an artifact, the newest by default. */
export const artifactGetTool = defineTeamTool({
  name: 'artifact_get',
  title: 'Read a run artifact',
  description: 'Read an artifact of the run by name: the newest version, or the one given.',
  input: z.object({
    name: artifactName(),
    revision: z.coerce
      .number()
      .int()
      .positive()
      .optional()
      .describe('A version number (default: the newest).'),
  }),
  output: z.object({ artifact: ArtifactSummarySchema.extend({ body: z.string() }) }),
  roles: ['member', 'user', 'observer'],
  readOnly: true,
  operation: (input) => `read artifact ${input.name}`,
  async handler(input, context) {
    const { version: _version, ...artifact } = await (await context.view()).readArtifact(
      input.name,
      input.revision,
    );
    return { artifact };
  },
  text: ({ artifact }) => `${summaryLine(artifact)}\n\n${artifact.body}`,
});

/** `artifact_list`: the run's artifacts with their newest versions. */
export const artifactListTool = defineTeamTool({
  name: 'artifact_list',
  title: 'List run artifacts',
  description: "List the run's artifacts, each with its newest version.",
  input: z.object({}),
  output: z.object({
    artifacts: z.array(
      z.object({ name: z.string(), versions: z.number(), latest: ArtifactSummarySchema }),
    ),
  }),
  roles: ['member', 'user', 'observer'],
  readOnly: true,
  operation: () => 'list artifacts',
  handler: async (_input, context) => ({ artifacts: await (await context.view()).listArtifacts() }),
  text: ({ artifacts }) =>
    artifacts.length === 0
      ? 'no artifacts'
      : artifacts
          .map((listing) => `- ${summaryLine(listing.latest)} (${listing.versions} version(s))`)
          .join('\n'),
});
