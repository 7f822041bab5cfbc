// The coprocess messages gw exchanges with a Tyk gRPC plugin server (coprocess.proto in this folder): their
// protobuf schemas for protobuf-wire.ts, field names and numbers as Tyk Gateway's, and their TypeScript shapes.
import { decodeMessage, encodeMessage, type FieldType, type MessageSchema } from './protobuf-wire.ts';

export const HookType = { Unknown: 0, Pre: 1, Post: 2, PostKeyAuth: 3, CustomKeyCheck: 4, Response: 5 } as const;

export interface ReturnOverrides {
  response_code?: number;
  response_error?: string;
  headers?: Record<string, string>;
  override_error?: boolean;
  response_body?: string;
}

export interface MiniRequestObject {
  headers?: Record<string, string>;
  set_headers?: Record<string, string>;
  delete_headers?: string[];
  body?: string;
  url?: string;
  params?: Record<string, string>;
  add_params?: Record<string, string>;
  extended_params?: Record<string, string>;
  delete_params?: string[];
  return_overrides?: ReturnOverrides;
  method?: string;
  request_uri?: string;
  scheme?: string;
  raw_body?: Buffer;
}

export interface ResponseObject {
  status_code?: number;
  raw_body?: Buffer;
  body?: string;
  headers?: Record<string, string>;
  multivalue_headers?: { key?: string; values?: string[] }[];
}

/** The session fields gw maps (Tyk's SessionState; the others are decoded and ignored). */
export interface CoprocessSession {
  rate?: number;
  per?: number;
  expires?: number;
  quota_max?: number;
  quota_renewal_rate?: number;
  quota_remaining?: number;
  access_rights?: Record<string, { api_name?: string; api_id?: string; versions?: string[] }>;
  org_id?: string;
  is_inactive?: boolean;
  apply_policy_id?: string;
  apply_policies?: string[];
  metadata?: Record<string, string>;
  tags?: string[];
  alias?: string;
  id_extractor_deadline?: number;
  session_lifetime?: number;
  max_query_depth?: number;
  key_id?: string;
}

export interface CoprocessObject {
  hook_type?: number;
  hook_name?: string;
  request?: MiniRequestObject;
  session?: CoprocessSession;
  metadata?: Record<string, string>;
  spec?: Record<string, string>;
  response?: ResponseObject;
}

const s = (type: 'string' | 'bytes' | 'bool' | 'int32' | 'int64' | 'double' | 'enum'): FieldType => ({ kind: 'scalar', type });
const stringMap: FieldType = { kind: 'map', value: 'string' };
const strings: FieldType = { kind: 'repeated', type: 'string' };

const ReturnOverridesSchema: MessageSchema = {
  response_code: { no: 1, type: s('int32') },
  response_error: { no: 2, type: s('string') },
  headers: { no: 3, type: stringMap },
  override_error: { no: 4, type: s('bool') },
  response_body: { no: 5, type: s('string') },
};

const MiniRequestSchema: MessageSchema = {
  headers: { no: 1, type: stringMap },
  set_headers: { no: 2, type: stringMap },
  delete_headers: { no: 3, type: strings },
  body: { no: 4, type: s('string') },
  url: { no: 5, type: s('string') },
  params: { no: 6, type: stringMap },
  add_params: { no: 7, type: stringMap },
  extended_params: { no: 8, type: stringMap },
  delete_params: { no: 9, type: strings },
  return_overrides: { no: 10, type: { kind: 'message', schema: () => ReturnOverridesSchema } },
  method: { no: 11, type: s('string') },
  request_uri: { no: 12, type: s('string') },
  scheme: { no: 13, type: s('string') },
  raw_body: { no: 14, type: s('bytes') },
};

const HeaderSchema: MessageSchema = { key: { no: 1, type: s('string') }, values: { no: 2, type: strings } };

const ResponseSchema: MessageSchema = {
  status_code: { no: 1, type: s('int32') },
  raw_body: { no: 2, type: s('bytes') },
  body: { no: 3, type: s('string') },
  headers: { no: 4, type: stringMap },
  multivalue_headers: { no: 5, type: { kind: 'repeatedMessage', schema: () => HeaderSchema } },
};

const AccessSpecSchema: MessageSchema = { url: { no: 1, type: s('string') }, methods: { no: 2, type: strings } };

const AccessDefinitionSchema: MessageSchema = {
  api_name: { no: 1, type: s('string') },
  api_id: { no: 2, type: s('string') },
  versions: { no: 3, type: strings },
  allowed_urls: { no: 4, type: { kind: 'repeatedMessage', schema: () => AccessSpecSchema } },
};

const SessionSchema: MessageSchema = {
  last_check: { no: 1, type: s('int64') },
  allowance: { no: 2, type: s('double') },
  rate: { no: 3, type: s('double') },
  per: { no: 4, type: s('double') },
  expires: { no: 5, type: s('int64') },
  quota_max: { no: 6, type: s('int64') },
  quota_renews: { no: 7, type: s('int64') },
  quota_remaining: { no: 8, type: s('int64') },
  quota_renewal_rate: { no: 9, type: s('int64') },
  access_rights: { no: 10, type: { kind: 'messageMap', schema: () => AccessDefinitionSchema } },
  org_id: { no: 11, type: s('string') },
  oauth_client_id: { no: 12, type: s('string') },
  oauth_keys: { no: 13, type: stringMap },
  hmac_enabled: { no: 16, type: s('bool') },
  is_inactive: { no: 18, type: s('bool') },
  apply_policy_id: { no: 19, type: s('string') },
  data_expires: { no: 20, type: s('int64') },
  enable_detailed_recording: { no: 22, type: s('bool') },
  metadata: { no: 23, type: stringMap },
  tags: { no: 24, type: strings },
  alias: { no: 25, type: s('string') },
  last_updated: { no: 26, type: s('string') },
  id_extractor_deadline: { no: 27, type: s('int64') },
  session_lifetime: { no: 28, type: s('int64') },
  apply_policies: { no: 29, type: strings },
  certificate: { no: 30, type: s('string') },
  max_query_depth: { no: 31, type: s('int64') },
  key_id: { no: 32, type: s('string') },
  post_expiry_action: { no: 33, type: s('string') },
  post_expiry_grace_period: { no: 34, type: s('int64') },
};

const ObjectSchema: MessageSchema = {
  hook_type: { no: 1, type: s('enum') },
  hook_name: { no: 2, type: s('string') },
  request: { no: 3, type: { kind: 'message', schema: () => MiniRequestSchema } },
  session: { no: 4, type: { kind: 'message', schema: () => SessionSchema } },
  metadata: { no: 5, type: stringMap },
  spec: { no: 6, type: stringMap },
  response: { no: 7, type: { kind: 'message', schema: () => ResponseSchema } },
};

export function encodeObject(object: CoprocessObject): Buffer {
  return encodeMessage(ObjectSchema, object as Record<string, unknown>);
}

export function decodeObject(data: Uint8Array): CoprocessObject {
  return decodeMessage(ObjectSchema, data);
}
