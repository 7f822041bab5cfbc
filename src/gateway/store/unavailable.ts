// A store that cannot answer right now (Redis restarting, unreachable, timing out, loading its data set) is not the
// gateway's fault and not the client's: it is the README error table's `unavailable`, 503, retry later. The
// store raises StoreUnavailableError; the proxy answers it 503 (proxy/handler.ts) and the management API's error
// handler does too (it is an HttpError), instead of 500.
import { HttpError } from '../../http/errors.ts';

export class StoreUnavailableError extends HttpError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('unavailable', message);
    this.name = 'StoreUnavailableError';
    if (options && 'cause' in options) this.cause = options.cause;
  }
}
