// Gateway options of TLS and trust: the HTTPS listeners (http_server_options), basic-auth password checking,
// upstream certificates and pinning, JWKS hosts, trusted proxies (a part of the gateway's configuration, config.ts).
import { z } from 'zod';
import { isJwksHostEntry } from '../credentials/jwks-hosts.ts';
import { parseAddressRange } from '../proxy/trusted-proxies.ts';

const port = z.int().min(0).max(65535);

export const basicAuthChecksOptions = z
  .object({
    hash_workers: z
      .int()
      .min(1)
      .max(64)
      .default(1)
      .describe(
        'Worker threads checking basic-auth passwords, and hashing those of keys written through the management API (bcrypt), off the event loop: jobs running at once.',
      ),
    hash_queue: z
      .int()
      .min(0)
      .default(32)
      .describe('Password checks and key-write hashes waiting for a worker; more are refused with 503 (checks with Retry-After).'),
    failure_cache_seconds: z
      .number()
      .min(0)
      .default(10)
      .describe('Seconds a failed password check is remembered, so repeating a wrong guess runs no bcrypt; 0 never remembers one.'),
    max_failures_per_user: z
      .int()
      .min(1)
      .default(5)
      .describe(
        'Failed basic-auth checks of one user (organisation and username) within lockout_window_seconds that lock that user out: 429 with Retry-After, even for the right password, until the lock-out ends.',
      ),
    max_failures_per_client: z
      .int()
      .min(1)
      .default(20)
      .describe(
        'Failed basic-auth checks from one client address (from a peer in trusted_proxies, the X-Forwarded-For address it appended) within lockout_window_seconds that lock that client out.',
      ),
    lockout_window_seconds: z
      .number()
      .positive()
      .default(300)
      .describe("The window failures are counted in, and the first lock-out's length; each further lock-out doubles, up to max_lockout_seconds."),
    max_lockout_seconds: z.number().positive().default(3600).describe('The longest lock-out.'),
    tracked_entries: z
      .int()
      .min(1)
      .default(10_000)
      .describe('Users and clients the lock-out tracks (each; least recently seen forgotten first), and credentials each password cache remembers.'),
  })
  .prefault({});

export const httpServerOptions = z
  .object({
    use_ssl: z.boolean().default(false).describe('Serve listen_port over TLS (HTTPS) instead of plain HTTP.'),
    https_port: port
      .default(0)
      .describe(
        'An additional HTTPS listener beside the plain listen_port (same address, same APIs); 0 opens none. Ours: Tyk opens extra ports per API instead.',
      ),
    certificates: z
      .array(z.object({ domain_name: z.string().min(1), cert_file: z.string().min(1), key_file: z.string().min(1) }))
      .default([])
      .describe('Certificates from PEM files, each served for its domain_name (SNI); the first is the default.'),
    ssl_certificates: z
      .array(z.string().min(1))
      .default([])
      .describe('Certificate store ids (with their private key) served on the TLS listeners, indexed by their CN and DNS names.'),
    min_version: z
      .union([z.literal(769), z.literal(770), z.literal(771), z.literal(772)])
      .default(771)
      .describe('Lowest TLS version accepted, as Tyk codes it: 769 TLS 1.0, 770 TLS 1.1, 771 TLS 1.2 (default), 772 TLS 1.3.'),
  })
  .prefault({})
  .describe('TLS listeners: HTTPS on listen_port (use_ssl) and/or on https_port, certificates chosen by SNI.');

export const upstreamAndTrustOptions = {
  security: z
    .object({
      certificates: z
        .object({
          upstream: z
            .record(z.string(), z.string())
            .default({})
            .describe("Upstream mTLS for every API: host (or *, *.domain, host:port) -> certificate store id; an API's upstream_certificates win."),
        })
        .prefault({}),
      pinned_public_keys: z
        .record(z.string(), z.string())
        .default({})
        .describe(
          "Public key pinning for every API: host (or *, *.domain) -> comma-separated certificate store ids (or PEM); an API's pinned_public_keys win.",
        ),
    })
    .prefault({})
    .describe("Gateway-wide upstream certificates and pinned public keys, merged under each API's own."),
  upstream_hosts: z
    .record(z.string(), z.string())
    .default({})
    .describe('Host name -> address used to reach upstreams (like /etc/hosts), e.g. {"httpbin.default.svc": "127.0.0.1"}.'),
  jwks: z
    .object({
      allowed_hosts: z
        .array(z.string().refine(isJwksHostEntry, { error: 'must be a host name, *.domain or an IP address, e.g. idp.example.com or *.auth0.com' }))
        .default([])
        .describe(
          'Hosts JWT APIs may fetch JWKS keys from (jwt_source / jwksURIs URLs): host names, *.domain (any name under it) or IP addresses; a URL on another host is never fetched and its tokens are refused. Empty: every host, internal addresses included: set it wherever untrusted users write APIs.',
        ),
    })
    .prefault({})
    .describe('JWKS fetching.'),
  trusted_proxies: z
    .array(
      z.string().refine((entry) => parseAddressRange(entry) !== undefined, { error: 'must be an IP address or a CIDR range, e.g. 10.0.0.0/8 or fd00::/8' }),
    )
    .default([])
    .describe(
      'Peers (IP addresses or CIDR ranges) allowed to forward for clients, e.g. ["10.0.0.0/8"]: a request from one of them has its address appended to X-Forwarded-For and keeps its X-Forwarded-Proto/-Host; from any other peer the gateway overwrites all three with what it saw. The IP allow and block lists read the client from X-Forwarded-For only from these peers. Empty: trust no one.',
    ),
};
