// ACME HTTP-01 solver paths, as cert-manager makes them: a path under /.well-known/acme-challenge/ (pathType
// ImplementationSpecific, or Exact behind its ACMEHTTP01IngressPathTypeExact gate) whose backend is its solver
// Service (`cm-acme-http-solver-*`), in an Ingress of its own (label acme.cert-manager.io/http01-solver: "true") or
// added to an existing one (http01.ingress.name). Such a route must answer the ACME server whatever the host's other
// Ingresses or this Ingress's template ask for: it is served keyless, the path unchanged and the client's Host kept
// (the solver answers only for the challenge's domain), as Tyk serves it. Pure.
import type { ApiDefinitionSpec } from '../../domain/crd/apidefinition.ts';
import type { IngressBackend, IngressObject } from './kinds.ts';

export const ACME_CHALLENGE_PREFIX = '/.well-known/acme-challenge/';
/** cert-manager's label on the Ingresses, Services and Pods of an HTTP-01 solver. */
export const ACME_SOLVER_LABEL = 'acme.cert-manager.io/http01-solver';
/** cert-manager's generateName of its solver Services (and Ingresses, Pods). */
export const ACME_SOLVER_NAME_PREFIX = 'cm-acme-http-solver-';

/** A solver path: under the challenge prefix, in a solver Ingress or towards a solver Service. */
export function isAcmeSolverPath(ingress: IngressObject, path: string, backend: IngressBackend): boolean {
  if (!path.startsWith(ACME_CHALLENGE_PREFIX) || path.length === ACME_CHALLENGE_PREFIX.length) return false;
  return ingress.metadata.labels?.[ACME_SOLVER_LABEL] === 'true' || (backend.service?.name.startsWith(ACME_SOLVER_NAME_PREFIX) ?? false);
}

/** The template of a solver route: keyless, path and Host kept; only the gateway (contextRef) from the Ingress's template. */
export function acmeSolverTemplate(contextRef: ApiDefinitionSpec['contextRef']): ApiDefinitionSpec {
  return { name: '', active: true, use_keyless: true, ...(contextRef ? { contextRef } : {}), proxy: { strip_listen_path: false, preserve_host_header: true } };
}
