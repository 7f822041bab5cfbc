// What a URL rewrite may say, checked by the gateway (which runs it) and the admission webhook (which refuses what
// the gateway would), so both refuse the same definitions.
//
// Targets (rewrite_to, rewriteTo): a rewrite stays on the API's upstream. Absolute URLs (another host) and Tyk's
//  internal looping (`tyk://self/...`) are refused rather than sent to the upstream as a path.
// Their regular expressions (Classic url_rewrites[].match_pattern and triggers' match_rx, OAS urlRewrite.pattern and
// triggers' rules' pattern) are bounded as every client-facing pattern is: bounded-regexp.ts.

/** `problem` completes "<field> ...". */
export function rewriteTargetProblem(text: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
  return /^tyk:\/\//i.test(text)
    ? 'loops back into the gateway (tyk://): internal looping is not supported; rewrite to a path of the upstream'
    : "is an absolute URL: a rewrite stays on the API's upstream; give a path (and query)";
}
