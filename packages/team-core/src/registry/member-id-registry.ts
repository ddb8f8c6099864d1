import { TeamkitError } from '../errors/index.js';

/** One team's pending member-id registrations: commit them, or roll them all back. */
export interface MemberIdTransaction {
  register(member: string): string;
  commit(): void;
  rollback(): void;
}

/**
 * The library-wide set of member ids (`<team>/<member>`, the names hosts register agents
 * under). Validating a team registers its members' ids as it goes; if the team is then
 * rejected, the transaction rolls them back so they cannot collide with a later team.
 */
export class MemberIdRegistry {
  readonly #owners = new Map<string, string>();

  /** Member ids registered so far, with the file of the team that owns each. */
  get entries(): ReadonlyMap<string, string> {
    return this.#owners;
  }

  /** Starts registering the members of team `teamId`, declared in `owner` (a file). */
  begin(teamId: string, owner: string): MemberIdTransaction {
    const added: string[] = [];
    let open = true;
    return {
      register: (member) => {
        if (!open) {
          throw new TeamkitError(
            'INVALID_INPUT',
            `The member-id transaction of team ${teamId} was already committed or rolled back; begin a new one to register ${member}.`,
            { details: { teamId, member } },
          );
        }
        const id = `${teamId}/${member}`;
        const holder = this.#owners.get(id);
        if (holder !== undefined) {
          const reason = added.includes(id)
            ? `duplicate member name "${member}"`
            : `member id "${id}" is already registered by ${holder}`;
          throw new TeamkitError('INVALID_TEAM', `${owner}: ${reason}.`, {
            details: { path: owner, memberId: id },
          });
        }
        this.#owners.set(id, owner);
        added.push(id);
        return id;
      },
      commit: () => {
        open = false;
      },
      rollback: () => {
        if (!open) return;
        open = false;
        for (const id of added) this.#owners.delete(id);
      },
    };
  }
}
