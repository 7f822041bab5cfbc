// Gateway options of rich plugins over gRPC (custom_middleware with driver grpc): Tyk's coprocess_options keys, and
// gw's deadline per call (a part of the gateway's configuration, config.ts).
import { z } from 'zod';

export const coprocessOptions = {
  coprocess_options: z
    .object({
      enable_coprocess: z
        .boolean()
        .default(false)
        .describe("Run gRPC plugins (custom_middleware with driver grpc), as Tyk's; without it an API using them is not served."),
      coprocess_grpc_server: z
        .string()
        .default('')
        .describe('Address of the gRPC plugin server (coprocess.Dispatcher): `tcp://host:port` or `unix:///path`. Required with enable_coprocess.'),
      grpc_recv_max_size: z
        .int()
        .min(0)
        .default(0)
        .describe("Largest answer in bytes read from the plugin server; larger: the request gets 500. 0: 4 MiB (gRPC's default)."),
      grpc_send_max_size: z
        .int()
        .min(0)
        .default(0)
        .describe('Largest message in bytes sent to the plugin server; larger: the request gets 500 without a call. 0: 4 MiB.'),
      grpc_authority: z.string().default('').describe('The :authority of calls to the plugin server; empty: its address.'),
      grpc_call_timeout: z
        .number()
        .positive()
        .default(5)
        .describe('Seconds one call to the plugin server may take (its gRPC deadline); past it the request gets 500 (gw option).'),
    })
    .prefault({})
    .describe('gRPC plugins (Tyk rich plugins, coprocess protocol).'),
};
