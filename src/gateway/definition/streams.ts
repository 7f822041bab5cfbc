// Compiles an OAS document's `x-gw-streaming` (api/streaming.ts) into the API's StreamSpecs: checked once, when the
// API is compiled, every problem a DefinitionError naming the field; two streams of one API on one path are
// refused. Each stream gets a hash of its configuration, so a reload can tell an unchanged stream from a changed one.
import { createHash } from 'node:crypto';
import { STREAM_COMPONENTS, STREAMS_EXTENSION, StreamingExtension } from '../../api/streaming.ts';
import { DefinitionError, type StreamSpec } from './api-spec.ts';

/** The streams of an OAS document, or undefined when it has no `x-gw-streaming`. */
export function compileStreams(doc: Record<string, unknown>, apiId: string): StreamSpec[] | undefined {
  if (!(STREAMS_EXTENSION in doc)) return undefined;
  refuseUnknownComponents(doc[STREAMS_EXTENSION]);
  const parsed = StreamingExtension.safeParse(doc[STREAMS_EXTENSION]);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DefinitionError(`${[STREAMS_EXTENSION, ...issue.path.map(String)].join('.')}: ${issue.message}`);
  }
  const streams = Object.entries(parsed.data.streams).map(([streamId, config]): StreamSpec => ({
    key: `${apiId}/${streamId}`,
    apiId,
    streamId,
    input: config.input,
    output: config.output,
    hash: createHash('sha256').update(JSON.stringify({ input: config.input, output: config.output })).digest('hex'),
  }));
  const seen = new Map<string, string>();
  for (const stream of streams) {
    for (const path of endpointPaths(stream)) {
      const prior = seen.get(path);
      if (prior) throw new DefinitionError(`${STREAMS_EXTENSION}.streams.${stream.streamId}: path ${path} is already served by stream ${prior}`);
      seen.set(path, stream.streamId);
    }
  }
  return streams;
}

/** A component gw does not run is named, with the ones it does (zod would only say the union did not match). */
function refuseUnknownComponents(extension: unknown): void {
  const streams = (extension as { streams?: unknown } | undefined)?.streams;
  if (typeof streams !== 'object' || streams === null) return;
  for (const [id, config] of Object.entries(streams)) {
    for (const side of ['input', 'output'] as const) {
      const component = (config as Record<string, unknown> | null)?.[side];
      if (typeof component !== 'object' || component === null) continue;
      const names = Object.keys(component);
      const unknown = names.find((name) => !STREAM_COMPONENTS.includes(name));
      if (unknown || names.length !== 1) {
        throw new DefinitionError(`${STREAMS_EXTENSION}.streams.${id}.${side}: ${unknown ? `${unknown} is not a component gw runs` : 'must name exactly one component'} (${STREAM_COMPONENTS.join(', ')})`);
      }
    }
  }
}

/** The paths (relative to the listen path) a stream answers on. */
function endpointPaths(stream: StreamSpec): string[] {
  const paths: string[] = [];
  if ('http_server' in stream.input) paths.push(stream.input.http_server.path);
  if ('http_server' in stream.output) {
    const { stream_path, ws_path } = stream.output.http_server;
    if (stream_path) paths.push(stream_path);
    if (ws_path) paths.push(ws_path);
  }
  return paths;
}
