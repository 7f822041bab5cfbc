// A Tyk OAS definition's plugins as the compiled API carries them (part of from-oas.ts): the fields read in their
// Classic form (domain/oas-plugins.ts) and compiled by the Classic code (plugins/plugin-spec.ts, plugins/grpc/
// grpc-spec.ts), so both formats load the same; each virtual endpoint answers its operation's path and method.
// What the definition rules refuse was checked before (definition-rules/plugins.ts); a plugin file that cannot be
// read refuses the API here, naming the OAS field.
import { oasPluginsAsClassic } from '../../domain/oas-plugins.ts';
import { GW_EXTENSION, operationsById, type GwExtension, type OasDocument } from '../../domain/oas.ts';
import { classicGrpcPlugins } from '../plugins/grpc/grpc-spec.ts';
import { classicPlugins, virtualEndpoints as compileVirtualEndpoints } from '../plugins/plugin-spec.ts';
import type { ApiSpec } from './api-spec.ts';
import type { VirtualEndpointRule } from './plugin-types.ts';

export function oasPlugins(doc: OasDocument, ext: GwExtension): Pick<ApiSpec, 'plugins' | 'grpcPlugins'> & { virtualEndpoints: VirtualEndpointRule[] } {
  const { classic, virtualEndpoints, oasFieldOf } = oasPluginsAsClassic(ext);
  const fieldOf = (field: string): string => `${GW_EXTENSION}.${oasFieldOf(field)}`;
  const operations = operationsById(doc);
  const sources: string[] = [];
  const rules = virtualEndpoints.flatMap(({ operationId, entry, field }) => {
    const target = operations.get(operationId); // an operationId missing from paths was refused before (from-oas.ts)
    return target ? compileVirtualEndpoints([{ ...entry, path: target.path, method: target.method }], field, sources, fieldOf) : [];
  });
  const plugins = classicPlugins(classic, sources, fieldOf);
  const grpcPlugins = classicGrpcPlugins(classic, fieldOf);
  return { ...(plugins ? { plugins } : {}), ...(grpcPlugins ? { grpcPlugins } : {}), virtualEndpoints: rules };
}
