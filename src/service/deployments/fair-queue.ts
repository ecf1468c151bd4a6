// Which queued deployment builds next (docs/decisions.md#fair-build-queue): the organizations take
// turns, so one tenant's backlog never keeps another's deployment waiting, and none builds more
// than FOLIO_BUILDS_PER_ORG at a time. Both stores (Store.claimDeployment) gather one turn per
// organization and let this rule pick, so it is written once.

/** An organization with a deployment that could start now (its project has none building). */
export interface OrgTurn {
  org_id: string;
  /** The organization's oldest such deployment. */
  deployment_id: string;
  created_at: string;
  /** The organization's deployments building now (on every node). */
  building: number;
  /** When a build of the organization last started; absent if none ever did. */
  last_started_at?: string;
}

/**
 * The turn that builds next: among organizations under `buildsPerOrg` (0: no limit), the one with
 * the fewest builds running, then the one served longest ago (never first), then the oldest
 * deployment. With one slot that is round-robin between organizations, oldest first within one.
 */
export function nextTurn(turns: Iterable<OrgTurn>, buildsPerOrg: number): OrgTurn | undefined {
  let best: OrgTurn | undefined;
  for (const turn of turns) {
    if (buildsPerOrg > 0 && turn.building >= buildsPerOrg) continue;
    if (!best || comesFirst(turn, best)) best = turn;
  }
  return best;
}

function comesFirst(a: OrgTurn, b: OrgTurn): boolean {
  if (a.building !== b.building) return a.building < b.building;
  const [la, lb] = [a.last_started_at ?? '', b.last_started_at ?? ''];
  if (la !== lb) return la < lb;
  if (a.created_at !== b.created_at) return a.created_at < b.created_at;
  return a.deployment_id < b.deployment_id;
}
