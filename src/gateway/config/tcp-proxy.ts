// Gateway options of the TCP and TLS proxy (APIs with protocol tcp or tls and their own listen_port, gateway/tcp/):
// which ports APIs may open (Tyk Gateway's ports_whitelist and disable_ports_whitelist, same names and meaning) and
// the bounds gw puts on the piped connections (a part of the gateway's configuration, config.ts).
import { z } from 'zod';

const port = z.int().min(1).max(65535);

/** Tyk's whitelist entry for one protocol: single ports and inclusive ranges. */
const PortsEntry = z.object({
  ports: z.array(port).default([]),
  ranges: z.array(z.object({ from: port, to: port })).default([]),
});

export type PortsWhitelist = Record<string, z.infer<typeof PortsEntry>>;

export const tcpProxyOptions = {
  ports_whitelist: z
    .record(z.string(), PortsEntry)
    .default({})
    .describe(
      'Ports APIs with protocol tcp or tls may open, per protocol: {"tcp": {"ports": [6380], "ranges": [{"from": 7000, "to": 7100}]}}. A port not listed for its protocol is not opened (load problem naming the API), as Tyk.',
    ),
  disable_ports_whitelist: z.boolean().default(false).describe('Let tcp and tls APIs open any listen_port (ports_whitelist not checked).'),
  tcp_proxy: z
    .object({
      idle_timeout_seconds: z
        .number()
        .positive()
        .default(300)
        .describe('Seconds a proxied TCP/TLS connection may pass no byte either way before both sides are closed.'),
      connect_timeout_seconds: z.number().positive().default(10).describe('Seconds to reach the upstream of a TCP/TLS API before the client is disconnected.'),
      max_connections_per_api: z
        .int()
        .positive()
        .default(1000)
        .describe('Open connections one TCP/TLS API holds at once (per process); a connection beyond it is closed as soon as it is accepted.'),
    })
    .prefault({}),
};
