// Compiles an OAS document's `x-gw-streaming` (api/streaming.ts) into the API's StreamSpecs: checked once, when the
// API is compiled, every problem a DefinitionError naming the field; two streams of one API on one path are
// refused. Each stream gets a hash of its configuration, so a reload can tell an unchanged stream from a changed one.
import { createHash } from 'node:crypto';
import { parseStreamingExtension, STREAMS_EXTENSION } from '../../domain/streaming.ts';
import { jmespathQueryProblem } from '../../jmespath/query.ts';
import { DefinitionError, type StreamSpec } from './api-spec.ts';

/** The streams of an OAS document, or undefined when it has no `x-gw-streaming`. */
export function compileStreams(doc: Record<string, unknown>, apiId: string): StreamSpec[] | undefined {
  if (!(STREAMS_EXTENSION in doc)) return undefined;
  const parsed = parseStreamingExtension(doc[STREAMS_EXTENSION], { jmespathQuery: jmespathQueryProblem });
  if ('problem' in parsed) throw new DefinitionError(parsed.problem);
  const streams = Object.entries(parsed.config.streams).map(([streamId, config]): StreamSpec => ({
    key: `${apiId}/${streamId}`,
    apiId,
    streamId,
    input: config.input,
    output: config.output,
    processors: config.pipeline?.processors ?? [],
    hash: createHash('sha256')
      .update(JSON.stringify({ input: config.input, pipeline: config.pipeline?.processors ?? [], output: config.output }))
      .digest('hex'),
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
