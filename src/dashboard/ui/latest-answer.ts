// For a view that asks the dashboard again whenever its inputs change (a page, a search, a reload after a write):
// only the answer to its latest question is applied. Two requests in flight may answer in either order (the
// browser runs up to six at once per host), so without this a slow answer to an earlier question (page 1 before
// the search, the list before the key was created) replaced the newer one on screen for good, the same class of
// race as a late 401 after signing out (api-client.ts).
export class LatestAnswer {
  #asked = 0;

  /** Sends nothing itself: applies `answered` (or `failed`) only if no question was asked after this one. */
  ask<T>(request: Promise<T>, answered: (value: T) => void, failed: (error: unknown) => void): void {
    const question = ++this.#asked;
    request.then(
      (value) => {
        if (question === this.#asked) answered(value);
      },
      (error: unknown) => {
        if (question === this.#asked) failed(error);
      },
    );
  }
}
