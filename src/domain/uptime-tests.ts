// Uptime tests of an API definition, with Tyk's field names: Classic `uptime_tests {disabled, check_list[], config}`
// and OAS `upstream.uptimeTests {enabled, tests[], hostDownRetestPeriod}`. Each check is an HTTP request (url, method,
// headers, body, timeout); the gateway runs them (gateway/uptime/) and, with proxy.check_host_against_uptime_tests
// (OAS upstream.loadBalancing.skipUnavailableHosts), load balancing skips a target whose host fails them. Tyk's TCP
// checks (protocol tcp/tls, commands, enable_proxy_protocol) and service discovery are refused by name when used.
import { z } from 'zod';
import { FreeForm } from './json.ts';

export const UptimeCheck = z.object({
  url: z.string().min(1).describe('URL checked; healthy when it answers 200 exactly.'),
  protocol: z.string().optional().describe('http or https (from the URL); tcp and tls are not supported.'),
  timeout: z.number().min(0).optional().describe('Nanoseconds (a Go duration, as Tyk); 0 or absent: the gateway uptime_tests.config.time_wait.'),
  method: z.string().optional().describe('HTTP method (default GET).'),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
  commands: z
    .array(z.object({ name: z.string(), message: z.string() }))
    .optional()
    .describe('TCP send/expect: not supported.'),
  enable_proxy_protocol: z.boolean().optional().describe('Not supported.'),
});

export const ClassicUptimeTests = z
  .object({
    disabled: z.boolean().optional(),
    check_list: z.array(UptimeCheck).optional(),
    config: z
      .object({
        expire_utime_after: z.number().optional().describe('Seconds uptime records are kept (accepted; gw records no uptime analytics).'),
        recheck_wait: z.number().optional().describe('Seconds before service discovery is asked again (accepted; with service discovery only).'),
        service_discovery: FreeForm.optional().describe('Not supported when use_discovery_service is true.'),
      })
      .optional(),
  })
  .describe('Uptime checks: HTTP requests the gateway sends every uptime_tests.config.time_wait seconds; HostDown / HostUp events.');

export const OasUptimeTests = z
  .looseObject({
    enabled: z.boolean(),
    tests: z
      .array(
        z.looseObject({
          url: z.string().min(1),
          timeout: z.string().optional().describe('A duration: 500ms, 2s, 1m.'),
          method: z.string().optional(),
          headers: z.record(z.string(), z.string()).optional(),
          body: z.string().optional(),
        }),
      )
      .optional(),
    hostDownRetestPeriod: z.string().optional().describe('Accepted (service discovery only).'),
  })
  .describe('Classic uptime_tests.');
