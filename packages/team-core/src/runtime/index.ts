export type {
  DeliverInput,
  DeliveryOutcome,
  InterruptOutcome,
  SpawnMemberInput,
  TeamHostCapability,
  TeamHostV1,
} from './team-host.js';
export {
  assertTeamHost,
  requireHostCapability,
  TEAM_HOST_SPECIFICATION_VERSION,
} from './team-host.js';
