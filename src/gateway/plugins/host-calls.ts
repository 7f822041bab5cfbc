// The host side of Tyk's JavaScript API, answered on the gateway thread for one plugin call (plugin-pool.ts hands
// each operation here): log and rawlog go to the gateway's log with the API's id; TykMakeHttpRequest
// ({Method, Body, Headers, Domain, Resource, FormData} -> {Code, Body, Headers, code, body, headers}, anything
// failing -> undefined, as Tyk); TykBatchRequest (Tyk's batch format {requests: [{method, headers, body,
// relative_url}], suppress_parallel_execution} -> [{relative_url, code, headers, body}]; a relative URL goes to this
// gateway under the API's listen path); TykGetKeyData(key, apiId) -> the key's session JSON; TykSetKeyData(key,
// session JSON, "1" keeps the quota) stores it, both for keys of the API's own organisation only (below). Answers
// are read up to jsvm_max_body_bytes, within jsvm_timeout.
import { request } from 'undici';
import type { ApiSpec } from '../definition/api-spec.ts';
import type { PipelineServices } from '../pipeline/services.ts';
import type { HostOp } from './js-api.ts';
import { canonicalHeader } from './mini-request.ts';
import type { HostHandler } from './plugin-pool.ts';

interface HttpAnswer {
  Code: number;
  Body: string;
  Headers: Record<string, string[]>;
  code: number;
  body: string;
  headers: Record<string, string[]>;
}

export function hostCalls(spec: ApiSpec, services: PipelineServices): HostHandler {
  const log = services.log.child({ api_id: spec.id, plugin: 'jsvm' });
  return (op: HostOp, arg: string) => {
    switch (op) {
      case 'log':
        log.info({ message: arg }, 'JSVM Log');
        return undefined;
      case 'rawlog':
        log.info(arg);
        return undefined;
      case 'http':
        return makeHttpRequest(arg, services).then((answer) => (answer ? JSON.stringify(answer) : undefined));
      case 'batch':
        return batchRequest(arg, spec, services);
      case 'getkey':
        return getKeyData(arg, spec, services);
      case 'setkey':
        return setKeyData(arg, spec, services);
    }
  };
}

async function makeHttpRequest(arg: string, services: PipelineServices): Promise<HttpAnswer | undefined> {
  const input = parse(arg);
  if (!isObject(input)) return undefined;
  const url = `${scalar(input.Domain, '')}${scalar(input.Resource, '')}`;
  const headers = stringRecord(input.Headers);
  let body = typeof input.Body === 'string' ? input.Body : '';
  if (body === '' && isObject(input.FormData)) {
    body = new URLSearchParams(stringRecord(input.FormData)).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  return send(scalar(input.Method, 'GET').toUpperCase(), url, headers, body, services);
}

async function send(method: string, url: string, headers: Record<string, string>, body: string, services: PipelineServices): Promise<HttpAnswer | undefined> {
  try {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;
    const timeout = services.config.jsvm_timeout * 1000;
    const response = await request(target, {
      method: method as 'GET',
      headers,
      ...(body !== '' && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > services.config.jsvm_max_body_bytes) {
        response.body.destroy();
        return undefined;
      }
      chunks.push(chunk);
    }
    const answerHeaders: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) answerHeaders[canonicalHeader(name)] = Array.isArray(value) ? value : [value];
    }
    const text = Buffer.concat(chunks, size).toString('utf8');
    return { Code: response.statusCode, Body: text, Headers: answerHeaders, code: response.statusCode, body: text, headers: answerHeaders };
  } catch {
    return undefined;
  }
}

async function batchRequest(arg: string, spec: ApiSpec, services: PipelineServices): Promise<string | undefined> {
  const input = parse(arg);
  if (!isObject(input) || !Array.isArray(input.requests)) return undefined;
  const base = `http://127.0.0.1:${services.config.listen_port}${spec.listenPath.endsWith('/') ? spec.listenPath : `${spec.listenPath}/`}`;
  const one = async (entry: unknown) => {
    const item = isObject(entry) ? entry : {};
    const relative = scalar(item.relative_url, '');
    const url = /^https?:\/\//i.test(relative) ? relative : new URL(relative.replace(/^\//, ''), base).toString();
    const answer = await send(scalar(item.method, 'GET').toUpperCase(), url, stringRecord(item.headers), scalar(item.body, ''), services);
    const headers = Object.fromEntries(Object.entries(answer?.Headers ?? {}).map(([name, values]) => [name, values.join(',')]));
    return { relative_url: relative, code: answer?.Code ?? 0, headers, body: answer?.Body ?? '' };
  };
  const requests = input.requests.slice(0, 100);
  const replies = [];
  if (input.suppress_parallel_execution === true) for (const entry of requests) replies.push(await one(entry));
  else replies.push(...(await Promise.all(requests.map(one))));
  return JSON.stringify(replies);
}

// Keys of the plugin's own organisation only (Tyk lets a plugin read and write any key of the gateway): another
// organisation's key reads as unknown and is never overwritten, and a key written names only this organisation (its
// org_id, the APIs of its access_rights), so no plugin mints a key that opens another organisation's APIs.
async function getKeyData(arg: string, spec: ApiSpec, services: PipelineServices): Promise<string | undefined> {
  const [key] = (parse(arg) as string[] | undefined) ?? [];
  if (!key) return undefined;
  const session = await services.store.getKey(services.storageIds.of(key, services.config.hash_keys));
  return session && (session.org_id ?? '') === spec.orgId ? JSON.stringify(session) : undefined;
}

async function setKeyData(arg: string, spec: ApiSpec, services: PipelineServices): Promise<string | undefined> {
  const [key, sessionJson, suppressReset] = (parse(arg) as string[] | undefined) ?? [];
  const session = parse(sessionJson ?? '');
  if (!key || !isObject(session)) return undefined;
  const org = spec.orgId;
  if ((session.org_id ?? org) !== org) return undefined;
  const apis = isObject(session.access_rights) ? Object.keys(session.access_rights) : [];
  if (apis.some((apiId) => services.apiOrg?.(apiId) !== org)) return undefined;
  const storageId = services.storageIds.of(key, services.config.hash_keys);
  const existing = await services.store.getKey(storageId);
  if (existing && (existing.org_id ?? '') !== org) return undefined;
  await services.store.putKey(storageId, org === '' ? session : { ...session, org_id: org }, { resetCounters: suppressReset !== '1' });
  services.sessions.invalidate(storageId);
  return '';
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(value)) return out;
  for (const [name, item] of Object.entries(value)) if (item !== undefined && item !== null) out[name.toLowerCase()] = scalar(item, '');
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A plugin's value as text: strings, numbers and booleans as written, anything else the fallback. */
function scalar(value: unknown, fallback: string): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : fallback;
}
