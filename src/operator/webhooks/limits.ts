// gw's documented limits table applied to one set of limit fields (a policy's global limits, or one access right's
// per-API `limit`): the cross-field rules the CRD schema cannot express.
//   rate / per        `rate` requests per `per` seconds; rate 0 or -1 is no rate limit, so only a rate > 0
//                     needs a period: per > 0
//   quota             quota_max -1 (unlimited) or positive (the schema refuses 0); a quota needs its period,
//                     quota_renewal_rate > 0 seconds (without one the quota would never renew)
//   throttling        on only when throttle_interval > 0 AND throttle_retry_limit > 0; any value < 0 (default -1)
//                     disables it and is fine; one of them > 0 while the other is 0 or unset silently disables
//                     throttling: a warning, not an error (the object works, just not as its author likely meant)
import { childPath, Findings, invalid, required, type ValidationResult } from './field-errors.ts';
import { asNumber } from '../../definition-rules/untyped.ts';

export function checkLimits(limits: unknown, base: string): ValidationResult {
  const findings = new Findings();
  if (typeof limits !== 'object' || limits === null) return findings;
  const fields = limits as Record<string, unknown>;
  const at = (name: string): string => childPath(base, name);

  const rate = asNumber(fields.rate);
  const per = asNumber(fields.per);
  if (rate !== undefined && rate > 0) {
    if (per === undefined)
      findings.error(
        required(
          at('per'),
          `the rate limit period in seconds is needed when rate is set (rate requests per \`per\` seconds); use rate 0 or -1 for no rate limit`,
        ),
      );
    else if (per <= 0)
      findings.error(
        invalid(
          at('per'),
          per,
          `must be a positive number of seconds when rate is set (rate requests per \`per\` seconds); use rate 0 or -1 for no rate limit`,
        ),
      );
  }

  const quotaMax = asNumber(fields.quota_max);
  const renewal = asNumber(fields.quota_renewal_rate);
  if (quotaMax !== undefined && quotaMax > 0) {
    const hint = 'the quota period in seconds (3600 hourly, 86400 daily) is needed when quota_max is set; use quota_max -1 for no quota';
    if (renewal === undefined) findings.error(required(at('quota_renewal_rate'), hint));
    else if (renewal <= 0) findings.error(invalid(at('quota_renewal_rate'), renewal, `must be positive: ${hint}`));
  }

  const interval = asNumber(fields.throttle_interval);
  const retries = asNumber(fields.throttle_retry_limit);
  const enables = (value: number | undefined): boolean => value !== undefined && value > 0;
  if (enables(interval) !== enables(retries)) {
    const [name, value] = enables(interval) ? ['throttle_retry_limit', retries] : ['throttle_interval', interval];
    const state = value === undefined ? 'not set' : `${value}`;
    findings.warn(at(name), `throttling disabled: ${name} is ${state} (throttling needs throttle_interval > 0 and throttle_retry_limit > 0; -1 disables it)`);
  }
  return findings;
}
