// Detailed analytics recording: decides, just before the upstream call, whether this request's analytics record
// carries its bodies (the gateway's analytics_config.enable_detailed_recording, the API's enable_detailed_recording
// or the key's), and if so starts a bounded capture (pipeline/body-capture.ts) that the upstream call fills.
// Only in the pipeline of APIs that record analytics (licensed mode, not do_not_track); never reads a body itself.
import type { Step } from '../pipeline/contract.ts';
import { BodyCapture } from '../pipeline/body-capture.ts';
import { endpointRule } from '../pipeline/endpoint-rule.ts';

export interface DetailedRecordingSettings {
  /** analytics_config.enable_detailed_recording: every request. */
  always: boolean;
  /** analytics_config.detailed_body_bytes. */
  bodyBytes: number;
}

export function detailedRecording(settings: DetailedRecordingSettings): Step {
  return (ctx) => {
    const key = ctx.key?.ok ? ctx.key : undefined;
    const wanted = settings.always || ctx.api.spec.analytics.detailed || key?.effective.session.enable_detailed_recording === true;
    if (wanted && endpointRule(ctx.version?.doNotTrackEndpoints, ctx) === undefined) ctx.capture = new BodyCapture(settings.bodyBytes);
    return false;
  };
}
