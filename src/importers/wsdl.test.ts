// WSDL import: service and port selection, SOAP and HTTP bindings, upstream from the address, refusals.
import { describe, expect, it } from 'vitest';
import { classicToSpec } from '../gateway/definition/from-classic.ts';
import { CLI_FLAGS, type ImportError } from './errors.ts';
import { importApi } from './import.ts';

const wsdl = `<?xml version="1.0" encoding="utf-8"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/"
    xmlns:tns="urn:weather" targetNamespace="urn:weather">
  <portType name="WeatherPort"><operation name="Today"/><operation name="Forecast"/></portType>
  <binding name="WeatherSoap12" type="tns:WeatherPort">
    <soap12:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Today"><soap12:operation soapAction="urn:Today"/></operation>
    <operation name="Forecast"><soap12:operation soapAction="urn:Forecast"/></operation>
  </binding>
  <binding name="WeatherSoap" type="tns:WeatherPort">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Today"><soap:operation soapAction="urn:Today"/></operation>
    <operation name="Forecast"><soap:operation soapAction="urn:Forecast"/></operation>
  </binding>
  <binding name="WeatherGet" type="tns:WeatherPort">
    <http:binding verb="GET"/>
    <operation name="Today"><http:operation location="/Today"/></operation>
    <operation name="Forecast"><http:operation location="/Forecast/(days)"/></operation>
  </binding>
  <service name="Weather Service">
    <port name="WeatherSoap12" binding="tns:WeatherSoap12"><soap12:address location="https://weather.example.com:8443/ws/weather.asmx"/></port>
    <port name="WeatherSoap" binding="tns:WeatherSoap"><soap:address location="https://weather.example.com:8443/ws/weather.asmx"/></port>
    <port name="WeatherGet" binding="tns:WeatherGet"><http:address location="http://weather.example.com/ws/weather.asmx"/></port>
  </service>
  <service name="Other"><port name="P" binding="tns:WeatherSoap"><soap:address location="http://other/x"/></port></service>
</definitions>`;

function list(definition: Awaited<ReturnType<typeof importApi>>['definition']) {
  return definition.version_data!.versions!.Default!.extended_paths!.white_list!.map((entry) => [entry.path, Object.keys(entry.method_actions!)]);
}

describe('WSDL', () => {
  it('imports the first service through its SOAP 1.1 port: POST on the address path, upstream its origin', async () => {
    const { definition, warnings } = await importApi({ format: 'wsdl', document: wsdl });
    expect(definition.name).toBe('Weather Service');
    expect(definition.proxy).toEqual({ listen_path: '/weather-service/', target_url: 'https://weather.example.com:8443', strip_listen_path: true });
    expect(list(definition)).toEqual([['/ws/weather.asmx', ['POST']]]);
    expect(warnings.join('\n')).toMatch(/2 services \(Weather Service, Other\)/);
    expect(warnings.join('\n')).toMatch(/port WeatherSoap \(soap\) .* not imported: WeatherSoap12 \(soap12\), WeatherGet \(http\)/);
    expect(warnings.join('\n')).toMatch(/SOAP operations Today, Forecast all answer POST \/ws\/weather\.asmx/);
    expect(() => classicToSpec(definition, 'w')).not.toThrow();
  });

  it('imports a chosen HTTP port: each operation on its location with the verb; the upstream option wins', async () => {
    const { definition } = await importApi(
      { format: 'wsdl', document: wsdl, portName: 'WeatherGet' },
      { upstreamUrl: 'http://10.0.0.1:81', versionName: 'v1' },
    );
    expect(definition.proxy?.target_url).toBe('http://10.0.0.1:81');
    expect(definition.version_data!.versions!.v1!.extended_paths!.white_list!.map((e) => [e.path, Object.keys(e.method_actions!)])).toEqual([
      ['/ws/weather.asmx/Forecast/{days}', ['GET']],
      ['/ws/weather.asmx/Today', ['GET']],
    ]);
  });

  it('selects a service by name and names the flag when it or the port does not exist', async () => {
    const { definition } = await importApi({ format: 'wsdl', document: wsdl, serviceName: 'Other' });
    expect(definition.proxy?.target_url).toBe('http://other');
    expect(list(definition)).toEqual([['/x', ['POST']]]);
    const missing = await (async () => {
      try {
        await importApi({ format: 'wsdl', document: wsdl, serviceName: 'Nope' });
      } catch (error) {
        return error as ImportError;
      }
      throw new Error('expected an error');
    })();
    expect(missing.describe(CLI_FLAGS)).toBe('the WSDL has no service "Nope" (--wsdl-service); its services: Weather Service, Other');
    await expect(importApi({ format: 'wsdl', document: wsdl, portName: 'Nope' })).rejects.toThrow(/has no port "Nope" \(port_name \(--wsdl-port\)\)/);
  });

  it('refuses mocks, WSDL 2.0, non-WSDL XML, malformed XML and a missing upstream', async () => {
    await expect(importApi({ format: 'wsdl', document: wsdl }, { asMock: true })).rejects.toThrow(/WSDL imports cannot create mocks/);
    await expect(importApi({ format: 'wsdl', document: '<description xmlns="http://www.w3.org/ns/wsdl"/>' })).rejects.toThrow(/WSDL 2\.0/);
    await expect(importApi({ format: 'wsdl', document: '<html/>' })).rejects.toThrow(/root element is <html>/);
    await expect(importApi({ format: 'wsdl', document: '<definitions xmlns="http://schemas.xmlsoap.org/wsdl/">' })).rejects.toThrow(/not well-formed XML/);
    const relative = wsdl.replaceAll('https://weather.example.com:8443/ws/', '/ws/');
    await expect(importApi({ format: 'wsdl', document: relative })).rejects.toThrow(
      /WSDL imports need an upstream URL: the address of port WeatherSoap is a relative URL/,
    );
    expect(list((await importApi({ format: 'wsdl', document: relative }, { upstreamUrl: 'http://u' })).definition)).toEqual([['/ws/weather.asmx', ['POST']]]);
  });
});
