// When a 401 tells the web UI its session ended: not for a request already on its way when the person signed out
// (the CI failure: "You are signed out." replaced by "Your session has ended" when the API list answered late).
// fetch and window are stand-ins here: the module's only two contacts with the browser.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, SESSION_ENDED, signingOut } from './api-client.ts';

describe('call and SESSION_ENDED', () => {
  let ended: number;
  let answer: (status: number) => void;

  beforeEach(() => {
    ended = 0;
    const page = new EventTarget();
    page.addEventListener(SESSION_ENDED, () => (ended += 1));
    vi.stubGlobal('window', page);
    vi.stubGlobal(
      'fetch',
      () =>
        new Promise<Response>((resolve) => {
          answer = (status) => resolve(new Response(JSON.stringify({ Message: 'not signed in' }), { status }));
        }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('tells the app when a request is refused 401 with the session it was sent under', async () => {
    const pending = call('GET', '/api/apis');
    answer(401);
    await expect(pending).rejects.toMatchObject({ status: 401 });
    expect(ended).toBe(1);
  });

  it('stays quiet for a 401 to a request sent before the person signed out of that session', async () => {
    const pending = call('GET', '/api/apis');
    signingOut('user');
    answer(401);
    await expect(pending).rejects.toMatchObject({ status: 401 });
    expect(ended).toBe(0);
  });

  it("still tells the app when the other session's request is refused", async () => {
    const pending = call('GET', '/admin/organisations');
    signingOut('user');
    answer(401);
    await expect(pending).rejects.toMatchObject({ status: 401 });
    expect(ended).toBe(1);
  });
});
