// Detailed analytics recording: decides, just before the upstream call, whether this request's analytics record
// carries its bodies (the gateway's analytics_config.enable_detailed_recording, the API's enable_detailed_recording
// or the key's), and if so starts a bounded capture (pipeline/body-capture.ts) that the upstream call fills.
// Only in the pipeline of APIs that record analytics (licensed mode, not do_not_track); never reads a body itself.
import type { Step } from '../../pipeline/contract.ts';
import { BodyCapture } from '../../pipeline/body-capture.ts';
import { endpointRule } from '../../pipeline/endpoint-rule.ts';
import type { AnalyticsSettings } from '../../pipeline/services.ts';
import type { StepDescriptor } from '../../pipeline/step.ts';

export function detailedRecording(settings: AnalyticsSettings): Step {
  return (ctx) => {
    const key = ctx.key?.ok ? ctx.key : undefined;
    const wanted = settings.detailedAlways || ctx.api.spec.analytics.detailed || key?.effective.session.enable_detailed_recording === true;
    if (wanted && endpointRule(ctx.version?.doNotTrackEndpoints, ctx) === undefined) ctx.capture = new BodyCapture(settings.detailedBodyBytes);
    return false;
  };
}

/** Licensed mode with analytics: an API with do_not_track records nothing. */
export const detailedRecordingStep: StepDescriptor = {
  name: 'detailed-recording',
  enabledFor: (api, services) => services.analytics !== undefined && !api.analytics.doNotTrack,
  build: (_api, services) => ({ request: detailedRecording(services.analytics!) }),
};
