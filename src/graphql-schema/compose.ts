// Federation composition (a leaf: graphql-js and @theguild/federation-composition, MIT), shared by the operator
// (a SuperGraph's composed SDL in status, composition errors as conditions) and the gateway (a supergraph API
// composes its subgraphs at load and executes against the result). Federation v1 and v2 subgraph SDLs both compose.
// Returns the supergraph SDL (with the join directives an executor plans with) and the public SDL (what clients
// see), or every problem, each naming the subgraph when it concerns one. Never throws for what an SDL says.
import { composeServices } from '@theguild/federation-composition';
import { GraphQLError, parse, type DocumentNode } from 'graphql';

export interface SubgraphSdl {
  /** The subgraph's name; composition errors name it. */
  name: string;
  /** Its federation SDL (`@key`, `extend type`, `@external`; v2: `extend schema @link(...)`). */
  sdl: string;
  url?: string;
}

export interface CompositionProblem {
  /** The subgraph the problem is in, when it is in one (syntax errors; composition errors that name one). */
  subgraph?: string;
  message: string;
}

export type Composition = { supergraphSdl: string; publicSdl: string } | { problems: CompositionProblem[] };

export function composeSubgraphs(subgraphs: readonly SubgraphSdl[]): Composition {
  if (subgraphs.length === 0) return { problems: [{ message: 'no subgraphs to compose' }] };
  const services: { name: string; typeDefs: DocumentNode; url?: string }[] = [];
  const problems: CompositionProblem[] = [];
  for (const s of subgraphs) {
    try {
      services.push({ name: s.name, typeDefs: parse(s.sdl), ...(s.url ? { url: s.url } : {}) });
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      const at = error.locations?.[0];
      problems.push({ subgraph: s.name, message: `${error.message}${at ? ` (line ${at.line}, column ${at.column})` : ''}` });
    }
  }
  if (problems.length > 0) return { problems };
  const result = composeServices(services);
  if (result.errors) return { problems: result.errors.map((e) => ({ ...namedSubgraph(e.message, subgraphs), message: e.message })) };
  return { supergraphSdl: result.supergraphSdl, publicSdl: result.publicSdl };
}

/** One line per problem, for conditions, Events and load errors. */
export function describeCompositionProblems(problems: readonly CompositionProblem[]): string {
  return problems.map((p) => (p.subgraph && !p.message.includes(`"${p.subgraph}"`) ? `subgraph ${p.subgraph}: ${p.message}` : p.message)).join('; ');
}

/** The first subgraph a composition message names (the library quotes subgraph names: `in subgraph "users"`). */
function namedSubgraph(message: string, subgraphs: readonly SubgraphSdl[]): { subgraph?: string } {
  const named = subgraphs.find((s) => message.includes(`"${s.name}"`) || message.startsWith(`[${s.name}]`));
  return named ? { subgraph: named.name } : {};
}
