// The messages JavaScript plugins and virtual endpoints answer with, Tyk Gateway's own (gateway/mw_js_plugin.go,
// mw_js_plugin_response.go, mw_virtual_endpoint.go), rendered through the error template (pipeline/error-reply.ts).
export const PluginMessages = {
  /** A request plugin threw, timed out or returned nothing usable. */
  failed: 'Internal Server Error',
  /** A response plugin failed. */
  responseFailed: 'Middleware error',
  /** A virtual endpoint failed (without proxy_on_error). */
  virtualFailed: 'Error during virtual endpoint execution. Contact Administrator for more details.',
} as const;
