// passwordHolderOf: an e-mail sign-in runs exactly one hash check whether the address is held by no user, one or
// several organisations' users, so neither the answer time nor the CPU spent depends on how many hold it.
import { describe, expect, it } from 'vitest';
import { passwordHolderOf, type PasswordHolder, type PasswordSignInDeps } from './password-sign-in.ts';

const DECOY = 'decoy-hash';

/** Deps over fixed holders whose "hash" is the password itself; every check is recorded. */
function countingDeps(holders: (PasswordHolder & { org: string })[]): { deps: PasswordSignInDeps; checked: string[] } {
  const checked: string[] = [];
  const deps: PasswordSignInDeps = {
    holders: async (_email, orgId) => holders.filter((holder) => orgId === undefined || holder.org === orgId),
    checkPassword: async (plain, hash) => {
      checked.push(hash);
      return plain === hash;
    },
    decoyHash: async () => DECOY,
  };
  return { deps, checked };
}

const holder = (id: string, password: string, org: string): PasswordHolder & { org: string } => ({ id, password_bcrypt: password, org });
const threeOrgs = [holder('u1', 'first-pass', 'org1'), holder('u2', 'second-pass', 'org2'), holder('u3', 'third-pass', 'org3')];

describe('e-mail sign-in hash checks', () => {
  it.each([
    ['held by nobody', []],
    ['held in one organisation', threeOrgs.slice(0, 1)],
    ['held in three organisations', threeOrgs],
  ])('runs exactly one check for a wrong password, the address %s', async (_name, holders) => {
    const { deps, checked } = countingDeps(holders);
    expect(await passwordHolderOf(deps, 'a@example.com', 'wrong-pass')).toBeUndefined();
    expect(checked).toHaveLength(1);
  });

  it("checks the decoy hash when nobody holds the address, the oldest holder's otherwise", async () => {
    const nobody = countingDeps([]);
    await passwordHolderOf(nobody.deps, 'a@example.com', 'first-pass');
    expect(nobody.checked).toEqual([DECOY]);
    const three = countingDeps(threeOrgs);
    expect(await passwordHolderOf(three.deps, 'a@example.com', 'first-pass')).toMatchObject({ id: 'u1' });
    expect(three.checked).toEqual(['first-pass']);
  });

  it("opens another organisation's user only when the sign-in names it, still with one check", async () => {
    const unnamed = countingDeps(threeOrgs);
    expect(await passwordHolderOf(unnamed.deps, 'a@example.com', 'third-pass')).toBeUndefined();
    expect(unnamed.checked).toHaveLength(1);
    const named = countingDeps(threeOrgs);
    expect(await passwordHolderOf(named.deps, 'a@example.com', 'third-pass', 'org3')).toMatchObject({ id: 'u3' });
    expect(named.checked).toEqual(['third-pass']);
  });
});
