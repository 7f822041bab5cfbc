// The message of one plugin call (js-api.ts __gwCall parses it): JSON.stringify({kind, name, args}) with args the
// request's objects followed by the spec object ({OrgID, APIID, config_data}). Made in two parts: what a step fixes
// (the kind, the plugin's name and the spec, config_data included, whatever its size) is serialized once, when the
// step is built; what each request brings (the request and the session; a response plugin's response first) is
// serialized per call (a request by mini-request.ts miniRequestJson) and put in between. The string is the one serializing the whole object would give, character
// for character: the worker reads the same message.

/** How the worker runs the call: `<name>.DoProcessRequest`, `<name>.DoProcessResponse`, or the function `<name>`. */
export type CallKind = 'middleware' | 'response' | 'virtual';

export class CallJson {
  readonly #head: string;
  readonly #tail: string;

  constructor(kind: CallKind, name: string, spec: Record<string, unknown>) {
    this.#head = `{"kind":${JSON.stringify(kind)},"name":${JSON.stringify(name)},"args":[`;
    this.#tail = `,${JSON.stringify(spec)}]}`;
  }

  /** JSON.stringify({kind, name, args: [request, session, spec]}), given the JSON of the request and of the session. */
  of(requestJson: string, sessionJson: string): string {
    return `${this.#head}${requestJson},${sessionJson}${this.#tail}`;
  }

  /** JSON.stringify({kind, name, args: [response, request, session, spec]}) (a response plugin's call), given their JSON. */
  ofResponse(responseJson: string, requestJson: string, sessionJson: string): string {
    return `${this.#head}${responseJson},${requestJson},${sessionJson}${this.#tail}`;
  }
}

/** An argument's JSON as JSON.stringify writes it in an array: what has no JSON form (undefined, a function) is `null`. */
export function argJson(value: unknown): string {
  const json: string | undefined = JSON.stringify(value); // undefined for undefined and functions, whatever the types say
  return json ?? 'null';
}

/** The JSON of `{}`: the session of a call without one. */
export const NO_SESSION_JSON = '{}';
