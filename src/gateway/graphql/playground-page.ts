// The GraphQL playground's three assets, served by the gateway itself (graphql/playground.ts): a page, its script
// and its style sheet. Self-contained (no CDN, no framework): a query editor, variables and request headers as
// JSON, a Run button (Ctrl/Cmd+Enter) that POSTs {query, variables} to the API's listen path with those headers,
// and the answer, pretty-printed. The page carries the endpoint in a data attribute (HTML-escaped), so the script
// needs nothing inline and the Content-Security-Policy can forbid every inline script and style.

/** The listen path the page POSTs to, escaped for an attribute value. */
export function playgroundHtml(endpoint: string, assetBase: string): string {
  const attr = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>GraphQL playground</title>
<link rel="stylesheet" href="${attr(assetBase)}/playground.css">
<script src="${attr(assetBase)}/playground.js" defer></script>
</head>
<body>
<main id="playground" data-endpoint="${attr(endpoint)}">
<header><h1>GraphQL playground</h1><span class="endpoint">POST ${attr(endpoint)}</span><button id="run" type="button" title="Ctrl+Enter">Run</button></header>
<section class="editors">
<label>Query<textarea id="query" spellcheck="false">{
  __typename
}</textarea></label>
<label>Variables (JSON)<textarea id="variables" spellcheck="false">{}</textarea></label>
<label>Headers (JSON, e.g. {"Authorization": "key"})<textarea id="headers" spellcheck="false">{}</textarea></label>
</section>
<section class="result"><div id="status"></div><pre id="response"></pre></section>
</main>
</body>
</html>
`;
}

export const PLAYGROUND_JS = `'use strict';
(function () {
  var root = document.getElementById('playground');
  var endpoint = root.getAttribute('data-endpoint');
  var field = function (id) { return document.getElementById(id); };
  function parsed(id, name) {
    var text = field(id).value.trim();
    if (text === '') return {};
    try { return JSON.parse(text); } catch (error) { throw new Error(name + ' is not JSON: ' + error.message); }
  }
  function show(status, text) {
    field('status').textContent = status;
    field('response').textContent = text;
  }
  function run() {
    var variables, headers;
    try {
      variables = parsed('variables', 'Variables');
      headers = parsed('headers', 'Headers');
    } catch (error) {
      show('Not sent', error.message);
      return;
    }
    headers['Content-Type'] = 'application/json';
    show('Sending...', '');
    fetch(endpoint, { method: 'POST', headers: headers, body: JSON.stringify({ query: field('query').value, variables: variables }), credentials: 'same-origin' })
      .then(function (answer) {
        return answer.text().then(function (body) {
          var pretty = body;
          try { pretty = JSON.stringify(JSON.parse(body), null, 2); } catch (ignored) { /* not JSON: shown as sent */ }
          show(answer.status + ' ' + answer.statusText, pretty);
        });
      })
      .catch(function (error) { show('Failed', String(error)); });
  }
  field('run').addEventListener('click', run);
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); run(); }
  });
})();
`;

export const PLAYGROUND_CSS = `body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1d1d1f; background: #f5f5f7; }
header { display: flex; align-items: center; gap: 1em; padding: 0.5em 1em; background: #fff; border-bottom: 1px solid #ddd; }
h1 { font-size: 1.1em; margin: 0; }
.endpoint { font-family: ui-monospace, monospace; color: #555; flex: 1; }
button { font: inherit; padding: 0.3em 1.2em; cursor: pointer; }
.editors { display: grid; grid-template-columns: 2fr 1fr 1fr; gap: 0.5em; padding: 0.5em 1em; }
label { display: flex; flex-direction: column; font-weight: 600; gap: 0.3em; }
textarea { font: 13px/1.4 ui-monospace, monospace; min-height: 14em; resize: vertical; padding: 0.5em; }
.result { padding: 0 1em 1em; }
#status { font-weight: 600; margin: 0.5em 0; }
pre { background: #fff; border: 1px solid #ddd; padding: 0.5em; min-height: 8em; overflow: auto; white-space: pre-wrap; }
`;
