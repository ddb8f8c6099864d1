export type {
  ArtifactListing,
  ArtifactSummary,
  PublishArtifactInput,
  RunArtifacts,
  RunArtifactsOptions,
} from './create-run-artifacts.js';
export {
  createRunArtifacts,
  MAX_ARTIFACT_BYTES,
  MAX_ARTIFACT_VERSIONS,
} from './create-run-artifacts.js';
