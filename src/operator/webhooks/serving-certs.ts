// The webhook server's certificate, kept current: tls.crt and tls.key of a directory (the mounted Secret that
// cert-manager or the chart maintains), re-read when they change so the server never needs a restart. The kubelet
// updates a Secret volume by swapping a `..data` symlink to a new directory, which changes both files at once;
// other writers may change them one after the other. So: fs.watch on the directory (any event schedules a check,
// debounced), plus a periodic check for filesystems where watching misses events. A check reloads only a pair that
// differs from the one in use AND forms a valid key pair (tls.createSecureContext accepts it); anything else keeps
// the current certificate and is logged once per distinct bad pair. It never writes the files.
import { watch, type FSWatcher, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Logger } from 'pino';

export interface KeyPair {
  cert: string;
  key: string;
}

export interface ServingCertsOptions {
  dir: string;
  log: Logger;
  /** Called with every new valid pair after the first. */
  onChange: (pair: KeyPair) => void;
  /** Periodic check, in ms (default 10 000). */
  pollMs?: number;
  /** Delay between a directory event and the check, in ms (default 100), so a burst of events is one check. */
  debounceMs?: number;
}

export const CERT_FILE = 'tls.crt';
export const KEY_FILE = 'tls.key';

/** Reads and checks the pair in `dir`; throws, naming the files, when it is missing or not a valid pair. */
export function loadKeyPair(dir: string): KeyPair {
  const certPath = join(dir, CERT_FILE);
  const keyPath = join(dir, KEY_FILE);
  let pair: KeyPair;
  try {
    pair = { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
  } catch (error) {
    throw new Error(`cannot read the webhook certificate ${certPath} and key ${keyPath}: ${(error as Error).message}`, { cause: error });
  }
  try {
    createSecureContext(pair);
  } catch (error) {
    throw new Error(`${certPath} and ${keyPath} are not a valid certificate and matching key: ${(error as Error).message}`, { cause: error });
  }
  return pair;
}

export class ServingCerts {
  readonly #options: ServingCertsOptions;
  #current: KeyPair;
  #lastRefused = '';
  #watcher: FSWatcher | undefined;
  #poll: NodeJS.Timeout | undefined;
  #debounce: NodeJS.Timeout | undefined;
  #closed = false;

  /** Loads the first pair (throws when there is none) and starts watching. */
  constructor(options: ServingCertsOptions) {
    this.#options = options;
    this.#current = loadKeyPair(options.dir);
    this.#watch();
    this.#poll = setInterval(() => this.check(), options.pollMs ?? 10_000);
    this.#poll.unref();
  }

  get current(): KeyPair {
    return this.#current;
  }

  /** Re-reads the directory now; true when a new pair was taken into use. */
  check(): boolean {
    if (this.#closed) return false;
    let pair: KeyPair;
    try {
      pair = { cert: readFileSync(join(this.#options.dir, CERT_FILE), 'utf8'), key: readFileSync(join(this.#options.dir, KEY_FILE), 'utf8') };
    } catch (error) {
      this.#refuse(`unreadable: ${(error as Error).message}`, String((error as Error).message));
      return false;
    }
    if (pair.cert === this.#current.cert && pair.key === this.#current.key) return false;
    try {
      createSecureContext(pair);
    } catch (error) {
      this.#refuse(`not a valid certificate and matching key: ${(error as Error).message}`, pair.cert + pair.key);
      return false;
    }
    this.#current = pair;
    this.#lastRefused = '';
    this.#options.log.info({ dir: this.#options.dir }, 'webhook serving certificate reloaded');
    this.#options.onChange(pair);
    return true;
  }

  close(): void {
    this.#closed = true;
    this.#watcher?.close();
    clearInterval(this.#poll);
    clearTimeout(this.#debounce);
  }

  #watch(): void {
    try {
      this.#watcher = watch(this.#options.dir, { persistent: false }, () => this.#schedule());
      this.#watcher.on('error', (error) => {
        this.#options.log.warn({ dir: this.#options.dir, err: error.message }, 'cannot watch the webhook certificate directory: checking it periodically only');
        this.#watcher?.close();
        this.#watcher = undefined;
      });
    } catch (error) {
      this.#options.log.warn(
        { dir: this.#options.dir, err: (error as Error).message },
        'cannot watch the webhook certificate directory: checking it periodically only',
      );
    }
  }

  #schedule(): void {
    clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => this.check(), this.#options.debounceMs ?? 100);
    this.#debounce.unref();
  }

  #refuse(reason: string, fingerprint: string): void {
    if (fingerprint === this.#lastRefused) return;
    this.#lastRefused = fingerprint;
    this.#options.log.warn({ dir: this.#options.dir, reason }, 'webhook serving certificate not reloaded: keeping the current one');
  }
}
