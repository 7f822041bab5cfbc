// The compiled APIs a reload may keep: compiling an API (parsing its definition, compiling its patterns, schemas
// and templates, building its pipeline) is most of a reload's work, and at 10 000 APIs recompiling every one to
// change one was the reload's cost. Each load keeps, by API id, what it compiled; the next load compiles an API
// again only when one of its compilation's inputs changed:
//   - its stored definition (id, format, document), compared by SHA-256 of its JSON;
//   - the files its compilation read (body transform templates, JavaScript plugin sources: definition/compile-inputs.ts),
//     read again and compared by content;
//   - for an API that names certificates (upstream_certificates, pinned_public_keys, its server certificates or
//     mTLS allow-list) or when the gateway-wide upstream certificates or pins are set: the certificate store (its
//     ids and contents), as the upstream TLS setup is kept for the life of the compiled API (proxy/upstream-tls.ts);
//   - for a JWT API: the ids of the loaded policies, as its verified tokens keep the policies chosen for them
//     (middleware/auth/jwt-auth.ts); policy contents are read per request, not at compile time.
// The gateway's configuration is the other input; it is fixed for the life of the process that holds this cache.
// An API with streams is always compiled again: its load acquires its running streams (streams/stream-registry.ts,
// which keeps a running stream whose configuration is unchanged). A compilation that fails is kept nowhere: the
// API is refused at every load until its inputs compile. A kept API keeps its per-API state (its JWT verified
// tokens, circuit breakers, caches), as it would had no reload happened.
//
// A load's round collects what it compiled or kept; the cache takes it only when the load is applied (commit), so a
// prepared load that is never served (a worker round aborted) leaves the cache as the served table has it.
import { createHash } from 'node:crypto';
import type { GatewayConfig } from './config.ts';
import type { ApiSpec } from './definition/api-spec.ts';
import { filesUnchanged, recordInputs } from './definition/compile-inputs.ts';
import type { CompiledApi } from './pipeline/contract.ts';
import type { StoredApi, StoredCert } from './store/store.ts';

/** What every API's compilation may read besides its own definition, digested once per load. */
export interface LoadInputs {
  /** The certificate store: ids and contents. */
  certificates: string;
  /** The ids of the policies loaded. */
  policyIds: string;
}

interface Kept {
  /** SHA-256 of the stored definition. */
  definition: string;
  compiled: CompiledApi;
  files: ReadonlyMap<string, string>;
  onReuse: readonly (() => void)[];
  /** The LoadInputs it was compiled with, for those it depends on. */
  certificates?: string;
  policyIds?: string;
}

export class CompiledApis {
  #kept = new Map<string, Kept>();
  readonly #config: GatewayConfig;

  constructor(config: GatewayConfig) {
    this.#config = config;
  }

  /** A load's compilations, reusing what the served load compiled. */
  round(inputs: LoadInputs): CompileRound {
    return new CompileRound(this.#kept, inputs, this.#config);
  }

  /** The round's load is served: what it compiled or kept is what the next load may keep. */
  commit(round: CompileRound): void {
    this.#kept = round.kept;
  }

  get size(): number {
    return this.#kept.size;
  }
}

export class CompileRound {
  readonly kept = new Map<string, Kept>();
  /** How many APIs this round compiled and how many it kept as they were. */
  compiledCount = 0;
  reusedCount = 0;
  readonly #previous: ReadonlyMap<string, Kept>;
  readonly #inputs: LoadInputs;
  readonly #config: GatewayConfig;

  constructor(previous: ReadonlyMap<string, Kept>, inputs: LoadInputs, config: GatewayConfig) {
    this.#previous = previous;
    this.#inputs = inputs;
    this.#config = config;
  }

  /** The compiled API for `api`: the kept one when none of its inputs changed, else `compile(api)` (which may throw). */
  compile(api: StoredApi, compile: (api: StoredApi) => CompiledApi): CompiledApi {
    const definition = definitionDigest(api);
    const known = this.#previous.get(api.id);
    if (known && this.#unchanged(known, definition)) {
      for (const redo of known.onReuse) redo();
      this.kept.set(api.id, known);
      this.reusedCount++;
      return known.compiled;
    }
    const { value: compiled, inputs } = recordInputs(() => compile(api));
    this.compiledCount++;
    const { spec } = compiled;
    if (spec.streams?.length) return compiled;
    this.kept.set(api.id, {
      definition,
      compiled,
      files: inputs.files,
      onReuse: inputs.onReuse,
      ...(namesCertificates(spec, this.#config) ? { certificates: this.#inputs.certificates } : {}),
      ...(spec.jwt ? { policyIds: this.#inputs.policyIds } : {}),
    });
    return compiled;
  }

  #unchanged(known: Kept, definition: string): boolean {
    if (known.definition !== definition) return false;
    if (known.certificates !== undefined && known.certificates !== this.#inputs.certificates) return false;
    if (known.policyIds !== undefined && known.policyIds !== this.#inputs.policyIds) return false;
    return filesUnchanged(known.files);
  }
}

/** The LoadInputs of a load with these certificates and policy ids. */
export function loadInputs(certificates: readonly StoredCert[], policyIds: Iterable<string>): LoadInputs {
  const certs = createHash('sha256');
  for (const { id, pem } of [...certificates].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) certs.update(`${id}\u0000${pem}\u0000`);
  const policies = createHash('sha256');
  for (const id of [...policyIds].sort()) policies.update(`${id}\u0000`);
  return { certificates: certs.digest('hex'), policyIds: policies.digest('hex') };
}

function definitionDigest(api: StoredApi): string {
  return createHash('sha256')
    .update(JSON.stringify([api.id, api.format, api.definition]))
    .digest('hex');
}

/** The API's compilation (or what it keeps) reads the certificate store. */
function namesCertificates(spec: ApiSpec, config: GatewayConfig): boolean {
  return (
    Object.keys(spec.upstreamCertificates ?? {}).length > 0 ||
    Object.keys(spec.pinnedPublicKeys ?? {}).length > 0 ||
    (spec.certificates?.length ?? 0) > 0 ||
    (spec.clientCertificates?.length ?? 0) > 0 ||
    Object.keys(config.security.certificates.upstream).length > 0 ||
    Object.keys(config.security.pinned_public_keys).length > 0
  );
}
