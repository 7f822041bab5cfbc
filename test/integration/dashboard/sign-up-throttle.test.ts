// The developer portal's sign-up throttle (issue 23 item 14) on a real dashboard (PGlite): every sign-up a client
// address gets as far as hashing counts, an account created or an e-mail found taken alike, and a client reaching
// sign_up_max_per_client within sign_in_window_seconds gets 429 with Retry-After and the form's alert, a parallel
// burst included (sign-ups in flight count); another address signs up meanwhile. Each test uses its own loopback
// address (127.0.0.x all reach the dashboard on 127.0.0.1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  text: string;
}

const WINDOW = 300;
const MAX = 3;
const agents: Agent[] = [];
afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.close()));
});

describe('portal sign-up throttle (per client address)', () => {
  let dashboard: RunningDashboard;
  let org: TestOrg;

  beforeAll(async () => {
    dashboard = await startDashboard({ sign_up_max_per_client: MAX, sign_in_window_seconds: WINDOW });
    org = await createOrg(dashboard, 'Sign-ups');
  });

  /** POSTs the sign-up form from this loopback address. */
  const signUpFrom = (localAddress: string) => {
    const dispatcher = new Agent({ localAddress });
    agents.push(dispatcher);
    return async (email: string): Promise<Answer> => {
      const response = await request(`${dashboard.url}/portal/${org.id}/register/`, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: 'a long developer password' }).toString(),
      });
      const retryAfter = response.headers['retry-after'];
      return { status: response.statusCode, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined, text: await response.body.text() };
    };
  };

  const developerEmails = async (): Promise<string[]> =>
    (await org.call('GET', '/api/portal/developers?p=-2')).json<{ Data: { email: string }[] }>().Data.map((d) => d.email);

  it('lets a parallel burst from one address create sign_up_max_per_client accounts, answers the rest 429; another address still signs up', async () => {
    const signUp = signUpFrom('127.0.0.61');
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => signUp(`burst${i}@dev.test`)));
    expect(burst.filter((a) => a.status === 303)).toHaveLength(MAX);
    const refused = burst.filter((a) => a.status === 429);
    expect(refused).toHaveLength(12 - MAX);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(WINDOW);
      expect(answer.text).toMatch(/<p role="alert" class="alert">Too many sign-ups from your address\. Wait \d+ (seconds?|minutes?), then try again\.<\/p>/);
    }
    const after = await signUp('after@dev.test');
    expect(after.status).toBe(429);
    expect(Number(after.retryAfter)).toBeGreaterThan(1);
    expect((await signUpFrom('127.0.0.62')('elsewhere@dev.test')).status).toBe(303);
    const emails = await developerEmails();
    expect(emails.filter((e) => e.startsWith('burst'))).toHaveLength(MAX);
    expect(emails).toContain('elsewhere@dev.test');
    expect(emails).not.toContain('after@dev.test');
  });

  it('counts an e-mail found taken like an account created, so sign-up cannot probe e-mails without limit', async () => {
    const probe = signUpFrom('127.0.0.63');
    const answers = [];
    for (let i = 0; i <= MAX; i += 1) answers.push(await probe('elsewhere@dev.test'));
    expect(answers.map((a) => a.status)).toEqual([...Array<number>(MAX).fill(409), 429]);
  });
});
