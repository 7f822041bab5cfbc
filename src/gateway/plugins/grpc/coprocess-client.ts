// The gateway's gRPC plugin client from its coprocess_options: none unless enable_coprocess and a server address.
import type { GatewayConfig } from '../../config.ts';
import { DispatcherClient } from './dispatcher-client.ts';

/** gRPC's default message size limit, used where grpc_*_max_size is 0. */
export const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

export function coprocessClient(options: GatewayConfig['coprocess_options']): DispatcherClient | undefined {
  if (!options.enable_coprocess || options.coprocess_grpc_server === '') return undefined;
  return new DispatcherClient({
    address: options.coprocess_grpc_server,
    authority: options.grpc_authority,
    recvMaxBytes: options.grpc_recv_max_size || DEFAULT_MAX_BYTES,
    sendMaxBytes: options.grpc_send_max_size || DEFAULT_MAX_BYTES,
    timeoutMs: options.grpc_call_timeout * 1000,
  });
}
