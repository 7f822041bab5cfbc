// Which user an e-mail + password sign-in opens (POST /session {email_address, password}), with the hash checks
// injected so that their number is testable. The same e-mail may be a user in several organisations (each with its
// own password); a check per user holding it would let the answer's time tell how many organisations hold an
// address (and make one sign-in cost as many bcrypt runs). So every sign-in runs exactly one bcrypt check: against
// the user of the organisation the body names (org_id), else the address's oldest user with a password, else a
// decoy hash when nobody matches (the same work as a real check).

/** A user holding the e-mail and a password. */
export interface PasswordHolder {
  id: string;
  password_bcrypt: string;
}

export interface PasswordSignInDeps {
  /** The address's users with a password, oldest first (only the organisation's when orgId is given). */
  holders: (email: string, orgId: string | undefined) => Promise<PasswordHolder[]>;
  checkPassword: (plain: string, hash: string) => Promise<boolean>;
  /** A bcrypt hash of a random password, checked when no user holds the address. */
  decoyHash: () => Promise<string>;
}

/** The user this e-mail and password open, or undefined; one bcrypt check whatever the count of holders. */
export async function passwordHolderOf(deps: PasswordSignInDeps, email: string, password: string, orgId?: string): Promise<PasswordHolder | undefined> {
  const [holder] = await deps.holders(email, orgId);
  const matches = await deps.checkPassword(password, holder?.password_bcrypt ?? (await deps.decoyHash()));
  return matches ? holder : undefined;
}
