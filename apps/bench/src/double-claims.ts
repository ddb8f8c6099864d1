/** One task that more than one claimant believes it won. */
export interface DoubleClaim {
  taskId: string;
  owners: string[];
}

/** What a claim round ended with, checked against what the store says. */
export interface ClaimAudit {
  /** Tasks won by more than one claimant (must be empty). */
  doubleClaims: DoubleClaim[];
  /** Tasks nobody reported winning. */
  unclaimed: string[];
  /** Tasks whose stored owner differs from the single claimant that reported winning. */
  ownerMismatches: string[];
  /** Total claims reported as won. */
  claims: number;
}

/**
 * Finds tasks that two or more claimants report having won. A claimant that reports
 * the same task twice also counts: the store let one task be claimed twice.
 */
export function findDoubleClaims(
  claimsByOwner: ReadonlyMap<string, readonly string[]>,
): DoubleClaim[] {
  const winners = new Map<string, string[]>();
  for (const [owner, taskIds] of claimsByOwner) {
    for (const taskId of taskIds) {
      const owners = winners.get(taskId);
      if (owners === undefined) winners.set(taskId, [owner]);
      else owners.push(owner);
    }
  }
  const doubles: DoubleClaim[] = [];
  for (const [taskId, owners] of winners) {
    if (owners.length > 1) doubles.push({ taskId, owners });
  }
  return doubles;
}

/**
 * Audits a claim round: double claims from the claimants' own reports, tasks left
 * unclaimed, and, when the store's view is given, owners that disagree with the reports.
 */
export function auditClaims(
  taskIds: readonly string[],
  claimsByOwner: ReadonlyMap<string, readonly string[]>,
  storedOwners?: ReadonlyMap<string, string | undefined>,
): ClaimAudit {
  const doubleClaims = findDoubleClaims(claimsByOwner);
  const reportedOwner = new Map<string, string>();
  let claims = 0;
  for (const [owner, ids] of claimsByOwner) {
    claims += ids.length;
    for (const id of ids) reportedOwner.set(id, owner);
  }
  const unclaimed = taskIds.filter((id) => !reportedOwner.has(id));
  const ownerMismatches: string[] = [];
  if (storedOwners !== undefined) {
    for (const [id, owner] of reportedOwner) {
      if (storedOwners.get(id) !== owner) ownerMismatches.push(id);
    }
  }
  return { doubleClaims, unclaimed, ownerMismatches, claims };
}
