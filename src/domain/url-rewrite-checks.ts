// What a URL rewrite may say, checked by the gateway (which runs it) and the admission webhook (which refuses what
// the gateway would), so both refuse the same definitions.
//
// Targets (rewrite_to, rewriteTo): a path (and query) on the API's upstream, or Tyk's internal looping URL
// (`tyk://self/...`, `tyk://<api_id or name>/...`: the request runs again through that API). Other absolute URLs
// (another host) are refused rather than sent to the upstream as a path; so is a tyk:// URL without a target.
// Their regular expressions (Classic url_rewrites[].match_pattern and triggers' match_rx, OAS urlRewrite.pattern and
// triggers' rules' pattern) are bounded as every client-facing pattern is: bounded-regexp.ts.

/** `problem` completes "<field> ...". */
export function rewriteTargetProblem(text: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
  if (/^tyk:\/\//i.test(text)) return /^tyk:\/\/[^/?]/i.test(text) ? undefined : 'names no API to loop to: tyk://self/<path> or tyk://<api_id or name>/<path>';
  return "is an absolute URL: a rewrite stays on the API's upstream (or loops: tyk://); give a path (and query)";
}
