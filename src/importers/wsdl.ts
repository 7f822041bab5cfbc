// WSDL 1.1 documents -> ImportedApi: one service, one port of it, becomes a SOAP API.
//   - service: the one named (--wsdl-service, service_name), else the first; port: the one named (--wsdl-port,
//     port_name), else the service's first SOAP 1.1 port, else its first SOAP 1.2 or HTTP port. The ports and
//     services not imported are listed in a warning;
//   - name: the service's name; version: the option, else `Default`; listen path `/<slug of service name>/`;
//   - upstream: the option, else the origin (scheme://host:port) of the port's address location;
//   - endpoints: SOAP (1.1 and 1.2) bindings: every operation is a POST on the port's address path (SOAP picks
//     the operation from the SOAPAction header or the body, so operations sharing an address are one gateway
//     endpoint; a warning lists them). HTTP bindings: each operation on address path + its http:operation
//     location (`(param)` parts become `{param}` wildcards) with the binding's verb.
// wsdl:import is not followed; WSDL 2.0 documents and mocks are refused.
import { ImportError } from './errors.ts';
import { versionNameFor, type ImportedApi, type ImportedEndpoint } from './imported-api.ts';
import { listenPathFromName } from './listen-path.ts';
import type { ImportOptions, WsdlSelection } from './options.ts';
import { checkedUpstreamOption, upstreamProblem } from './upstream.ts';
import { childrenNamed, parseXml, XmlError, type XmlElement } from './xml.ts';

const WSDL = 'http://schemas.xmlsoap.org/wsdl/';
const WSDL20 = 'http://www.w3.org/ns/wsdl';
const SOAP11 = 'http://schemas.xmlsoap.org/wsdl/soap/';
const SOAP12 = 'http://schemas.xmlsoap.org/wsdl/soap12/';
const HTTP = 'http://schemas.xmlsoap.org/wsdl/http/';

type BindingKind = 'soap' | 'soap12' | 'http';
const KIND_PREFERENCE: BindingKind[] = ['soap', 'soap12', 'http'];

interface Binding {
  name: string;
  kind: BindingKind | undefined;
  verb: string;
  operations: { name: string; location: string }[];
}

interface Port {
  name: string;
  binding: Binding | undefined;
  address: string | undefined;
}

/** Reads a WSDL 1.1 document (XML text). */
export function readWsdl(document: unknown, options: ImportOptions & WsdlSelection): ImportedApi {
  if (options.asMock) throw new ImportError('asMock', 'WSDL imports cannot create mocks: {param} applies to API Blueprint imports only');
  if (typeof document !== 'string') throw new ImportError('document', 'a WSDL document must be given as XML text');
  let root: XmlElement;
  try {
    root = parseXml(document);
  } catch (error) {
    if (error instanceof XmlError) throw new ImportError('document', `not well-formed XML: ${error.message}`);
    throw error;
  }
  if (root.ns === WSDL20) throw new ImportError('document', 'WSDL 2.0 documents are not supported: give a WSDL 1.1 document (wsdl:definitions)');
  if (root.ns !== WSDL || root.local !== 'definitions') {
    throw new ImportError('document', `not a WSDL 1.1 document: the root element is <${root.qname}>, expected wsdl:definitions`);
  }
  const warnings: string[] = [];
  if (childrenNamed(root, WSDL, 'import').length > 0) warnings.push('wsdl:import is not followed: only this document is read');

  const bindings = new Map<string, Binding>();
  for (const element of childrenNamed(root, WSDL, 'binding')) {
    const binding = readBinding(element);
    bindings.set(binding.name, binding);
  }
  const services = childrenNamed(root, WSDL, 'service');
  const serviceNames = services.map((service) => attribute(service, 'name'));
  if (services.length === 0) throw new ImportError('document', 'the WSDL defines no service (wsdl:service)');
  let service = services[0]!;
  if (options.serviceName !== undefined) {
    const found = services.find((candidate) => attribute(candidate, 'name') === options.serviceName);
    if (!found) throw new ImportError('serviceName', `the WSDL has no service "${options.serviceName}" ({param}); its services: ${serviceNames.join(', ')}`);
    service = found;
  } else if (services.length > 1) {
    warnings.push(
      `the WSDL defines ${services.length} services (${serviceNames.join(', ')}): ${serviceNames[0]} is imported (select another with --wsdl-service / service_name)`,
    );
  }
  const serviceName = attribute(service, 'name') || 'WSDL service';

  const ports: Port[] = childrenNamed(service, WSDL, 'port').map((element) => ({
    name: attribute(element, 'name'),
    binding: bindings.get(element.resolve(attribute(element, 'binding'))?.local ?? ''),
    address: element.children.find((child) => child.local === 'address' && [SOAP11, SOAP12, HTTP].includes(child.ns))?.attributes.get('location'),
  }));
  const port = choosePort(ports, serviceName, options.portName, warnings);
  const binding = port.binding!;

  let upstreamUrl: string | undefined;
  let upstreamHint = `port ${port.name} has no address`;
  let addressPath = '/';
  if (port.address !== undefined) {
    const problem = upstreamProblem(port.address);
    if (problem) {
      upstreamHint = `the address of port ${port.name} ${problem}: ${port.address}`;
      if (port.address.startsWith('/')) addressPath = port.address.split(/[?#]/)[0]!;
    } else {
      const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(port.address) ? port.address : `http://${port.address}`);
      upstreamUrl = url.origin;
      addressPath = url.pathname || '/';
    }
  }
  if (options.upstreamUrl !== undefined) upstreamUrl = checkedUpstreamOption(options.upstreamUrl);

  return {
    format: 'WSDL',
    name: serviceName,
    versionName: versionNameFor(options),
    upstreamUrl,
    upstreamHint,
    listenPath: listenPathFromName(serviceName),
    endpoints: endpoints(binding, addressPath, warnings),
    warnings,
  };
}

function readBinding(element: XmlElement): Binding {
  const marker = element.children.find((child) => child.local === 'binding' && [SOAP11, SOAP12, HTTP].includes(child.ns));
  const kind: BindingKind | undefined = marker?.ns === SOAP11 ? 'soap' : marker?.ns === SOAP12 ? 'soap12' : marker?.ns === HTTP ? 'http' : undefined;
  return {
    name: attribute(element, 'name'),
    kind,
    verb: (marker?.attributes.get('verb') ?? 'POST').toUpperCase(),
    operations: childrenNamed(element, WSDL, 'operation').map((operation) => ({
      name: attribute(operation, 'name'),
      location: operation.children.find((child) => child.ns === HTTP && child.local === 'operation')?.attributes.get('location') ?? '',
    })),
  };
}

function choosePort(ports: Port[], serviceName: string, wanted: string | undefined, warnings: string[]): Port {
  const usable = ports.filter((port) => port.binding?.kind !== undefined);
  const describe = (list: Port[]): string => list.map((port) => `${port.name} (${port.binding?.kind ?? 'unsupported binding'})`).join(', ');
  if (wanted !== undefined) {
    const found = ports.find((port) => port.name === wanted);
    if (!found) throw new ImportError('portName', `service ${serviceName} has no port "${wanted}" ({param}); its ports: ${describe(ports) || 'none'}`);
    if (!found.binding) throw new ImportError('portName', `port ${wanted} ({param}) names a binding the WSDL does not define`);
    if (!found.binding.kind) throw new ImportError('portName', `port ${wanted} ({param}) is neither SOAP 1.1, SOAP 1.2 nor HTTP`);
    return found;
  }
  const chosen = KIND_PREFERENCE.map((kind) => usable.find((port) => port.binding!.kind === kind)).find((port) => port !== undefined);
  if (!chosen) throw new ImportError('document', `service ${serviceName} has no SOAP or HTTP port${ports.length > 0 ? `: ${describe(ports)}` : ''}`);
  const others = ports.filter((port) => port !== chosen);
  if (others.length > 0)
    warnings.push(
      `port ${chosen.name} (${chosen.binding!.kind}) of service ${serviceName} is imported; not imported: ${describe(others)} (select another with --wsdl-port / port_name)`,
    );
  return chosen;
}

function endpoints(binding: Binding, addressPath: string, warnings: string[]): ImportedEndpoint[] {
  const operations = binding.operations.filter((operation) => operation.name);
  if (operations.length === 0) {
    warnings.push(`binding ${binding.name} has no operations: the version has no endpoint list, so every path is forwarded`);
    return [];
  }
  if (binding.kind !== 'http') {
    if (operations.length > 1) {
      warnings.push(
        `SOAP operations ${operations.map((operation) => operation.name).join(', ')} all answer POST ${addressPath}: one gateway endpoint covers them`,
      );
    }
    return [{ path: addressPath, method: 'POST' }];
  }
  return operations.map((operation) => ({
    path: joinPath(addressPath, operation.location.replace(/\(([^)]*)\)/g, '{$1}')),
    method: binding.verb,
  }));
}

function joinPath(base: string, location: string): string {
  if (!location) return base;
  const left = base.endsWith('/') ? base.slice(0, -1) : base;
  return `${left}${location.startsWith('/') ? '' : '/'}${location.split('?')[0]}`;
}

function attribute(element: XmlElement, name: string): string {
  return element.attributes.get(name)?.trim() ?? '';
}
