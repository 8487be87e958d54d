/**
 * Tester groups named in an input (`groups`), looked up before anything depends on them: a group
 * that does not exist is found by one small request, not after an upload or half an invitation.
 */
import type { CallOptions, MobileClient, MobileTesterGroup } from '@sauce-actions/api';

type TesterGroupLister = Pick<MobileClient['testerGroups'], 'list'>;

export interface TesterGroupCheck {
  /** Every group of the account, as listed. */
  existing: MobileTesterGroup[];
  /** The group each wanted name or id names, in the order wanted, each once. */
  found: MobileTesterGroup[];
  /** Wanted names or ids that name no group. */
  unknown: string[];
}

/** Lists the account's tester groups once and matches each wanted name or id against them. */
export async function checkTesterGroups(
  api: TesterGroupLister,
  wanted: readonly string[],
  options: CallOptions = {},
): Promise<TesterGroupCheck> {
  const existing = (await api.list(options)).groups ?? [];
  const found: MobileTesterGroup[] = [];
  const unknown: string[] = [];
  for (const nameOrId of wanted) {
    const group = findTesterGroup(existing, nameOrId);
    if (group === undefined) unknown.push(nameOrId);
    else if (!found.includes(group)) found.push(group);
  }
  return { existing, found, unknown };
}

/** The group named exactly so or, failing that, the one whose id is the text. */
export function findTesterGroup(
  groups: readonly MobileTesterGroup[],
  nameOrId: string,
): MobileTesterGroup | undefined {
  return groups.find((g) => g.name === nameOrId) ?? groups.find((g) => String(g.id) === nameOrId);
}

/** `Unknown tester group: beta (the account has: qa).`, followed by what to do. */
export function unknownGroupsMessage(check: TesterGroupCheck, remedy: string): string {
  const known = check.existing.map((g) => g.name).join(', ') || 'none';
  const plural = check.unknown.length > 1 ? 's' : '';
  return `Unknown tester group${plural}: ${check.unknown.join(', ')} (the account has: ${known}). ${remedy}`;
}
