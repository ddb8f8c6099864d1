import { readFile } from 'node:fs/promises';
import { resolveRunId, splitRunArgument } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';
import { runToolAs } from '../../tool-command.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `team artifact put [run] <name> [--file F] [--title T]`: publishes the next version of a
 * named Markdown deliverable of the run, as the caller (the body from `--file`, else stdin),
 * through the shared `artifact_put` tool.
 */
export const artifactPutCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = splitRunArgument(context, args, 1, 'team artifact put <run> <name>');
  if (rest.length !== 1) throw new UsageError('Name the artifact: team artifact put [run] <name>.');
  const runId = await resolveRunId(context, run);
  const body =
    typeof options.file === 'string' ? await readFile(options.file, 'utf8') : await readStdin();
  const {
    output: { artifact },
  } = await runToolAs(context, runId, 'artifact_put', {
    name: rest[0],
    body,
    title: options.title,
  });
  const { output } = context;
  output.result(
    { runId, artifact },
    () =>
      `${output.style('green', 'published')} ${artifact.name} v${artifact.revision} by ${artifact.author} (${artifact.bytes} bytes)`,
  );
  return undefined;
};

/**
 * `team artifact get [run] <name> [--version N]`: prints a version's Markdown (the newest
 * by default), through the shared `artifact_get` tool (`--version` is its `revision`).
 */
export const artifactGetCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = splitRunArgument(context, args, 1, 'team artifact get <run> <name>');
  if (rest.length !== 1) throw new UsageError('Name the artifact: team artifact get [run] <name>.');
  const runId = await resolveRunId(context, run);
  const {
    output: { artifact },
  } = await runToolAs(context, runId, 'artifact_get', {
    name: rest[0],
    revision: options.version,
  });
  context.output.result({ runId, artifact }, () => artifact.body);
  return undefined;
};

/** `team artifact list [run]`: the run's artifacts with their newest versions (`artifact_list`). */
export const artifactListCommand: CommandHandler = async (context, [run]) => {
  const runId = await resolveRunId(context, run);
  const {
    output: { artifacts },
  } = await runToolAs(context, runId, 'artifact_list', {});
  const { output } = context;
  output.result({ runId, artifacts }, () =>
    artifacts.length === 0
      ? output.style('dim', 'No artifacts.')
      : artifacts
          .map(
            ({ name, versions, latest }) =>
              `${name}  v${latest.revision} by ${latest.author}, ${latest.bytes} bytes, ${versions} version(s)${latest.title === undefined ? '' : `  ${latest.title}`}`,
          )
          .join('\n'),
  );
  return undefined;
};
