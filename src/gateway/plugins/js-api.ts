// Tyk's JavaScript API as plugins see it, as source evaluated first in every plugin context (plugin-worker.ts):
// the TykJS namespace (TykJS.TykMiddleware.NewMiddleware with NewProcessRequest / NewProcessResponse, ReturnData,
// ReturnAuthData, ReturnResponseData, DoProcessRequest / DoProcessResponse), TykJsResponse, log, rawlog, b64enc,
// b64dec, rawb64enc, rawb64dec, TykMakeHttpRequest, TykBatchRequest, TykGetKeyData, TykSetKeyData, as Tyk Gateway's
// otto JSVM defines them. Everything here is defined in the plugin's own realm: the one host function it uses,
// `__gwHost(op, text)` (strings in, a string or undefined out), is captured in a closure and removed from the global
// object before any plugin code runs, so plugins never hold a function of the worker's realm (whose Function
// constructor would reach `process`). Nothing that allocates outside the V8 heap is left in it (array buffers,
// typed arrays, WebAssembly). `__gwCall()` runs one call described by the string in `__gwArgs` (both fixed: a plugin cannot replace them).

/** The host operations the API asks of its worker: a string argument, a string (or undefined) back. */
export type HostOp = 'log' | 'rawlog' | 'http' | 'batch' | 'getkey' | 'setkey';

export const JS_API_SOURCE = String.raw`
(function (global) {
  'use strict';
  var host = global.__gwHost;
  delete global.__gwHost;
  // No memory outside the worker's heap limit (jsvm_memory_mb bounds the V8 heap only): array buffers, typed arrays,
  // shared memory and WebAssembly memories live beside it, so a plugin could hold gigabytes across calls and take
  // the gateway down. Tyk's otto (ECMAScript 5) has none of them.
  var outsideHeap = [ArrayBuffer, SharedArrayBuffer, DataView, Atomics, WebAssembly, Object.getPrototypeOf(Int8Array)];
  Object.getOwnPropertyNames(global).forEach(function (name) {
    var value = global[name];
    if (outsideHeap.indexOf(value) !== -1 || (typeof value === 'function' && Object.getPrototypeOf(value) === outsideHeap[5])) delete global[name];
  });
  function str(value) { return value === undefined || value === null ? '' : String(value); }
  function call(op, text) {
    var out;
    // The host is the worker's function: an error it throws (a stack overflow inside it) is of the worker's realm,
    // never handed to the plugin.
    try { out = host(op, str(text)); } catch (e) { return undefined; }
    return typeof out === 'string' ? out : undefined;
  }
  var B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function utf8Bytes(text) {
    var bytes = [];
    var encoded = unescape(encodeURIComponent(text));
    for (var i = 0; i < encoded.length; i++) bytes.push(encoded.charCodeAt(i));
    return bytes;
  }
  function encode(text, pad) {
    var bytes = utf8Bytes(str(text)), out = '';
    for (var i = 0; i < bytes.length; i += 3) {
      var n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
      out += i + 1 < bytes.length ? B64[(n >> 6) & 63] : pad ? '=' : '';
      out += i + 2 < bytes.length ? B64[n & 63] : pad ? '=' : '';
    }
    return out;
  }
  function decode(text, padded) {
    var input = str(text);
    if (padded ? input.length % 4 !== 0 : input.length % 4 === 1) return undefined;
    var body = padded ? input.replace(/={1,2}$/, '') : input;
    var binary = '', bits = 0, value = 0;
    for (var i = 0; i < body.length; i++) {
      var index = B64.indexOf(body[i]);
      if (index === -1) return undefined;
      value = (value << 6) | index;
      bits += 6;
      if (bits >= 8) { bits -= 8; binary += String.fromCharCode((value >> bits) & 255); }
    }
    try { return decodeURIComponent(escape(binary)); } catch (e) { return binary; }
  }
  global.log = function (message) { call('log', message); };
  global.rawlog = function (message) { call('rawlog', message); };
  global.b64enc = function (text) { return encode(text, true); };
  global.b64dec = function (text) { return decode(text, true); };
  global.rawb64enc = function (text) { return encode(text, false); };
  global.rawb64dec = function (text) { return decode(text, false); };
  global.TykMakeHttpRequest = function (request) { return call('http', request); };
  global.TykBatchRequest = function (request) { return call('batch', request); };
  global.TykGetKeyData = function (key, apiId) { return call('getkey', JSON.stringify([str(key), str(apiId)])); };
  global.TykSetKeyData = function (key, session, suppressReset) {
    call('setkey', JSON.stringify([str(key), typeof session === 'string' ? session : JSON.stringify(session), str(suppressReset)]));
  };
  global.TykJsResponse = function (response, sessionMeta) {
    return JSON.stringify({ Response: response, SessionMeta: sessionMeta });
  };

  // What DoProcessRequest answers: ReturnData's (or ReturnAuthData's) object with, of its Request, only what the
  // gateway applies (mini-request.ts applyRequest) and the plugin changed, instead of the whole request. A field is
  // left out only where its JSON could change nothing: SetHeaders, DeleteHeaders, AddParams, DeleteParams empty (or
  // not an object), the URL and the (re-encoded) Body as sent, the Body when IgnoreBody is true, IgnoreBody false,
  // ReturnOverrides without a ResponseCode of 100 or more; anything else goes as the plugin left it, serialized as
  // before. Fields the gateway never reads (Headers, Params, ExtendedParams, Method, RequestURI, Scheme) stay here.
  // An object JSON would not serialize as its own properties (an array, a toJSON) is answered whole, as it was.
  var ownKeys = Object.keys, isArray = Array.isArray, hasOwn = Object.prototype.hasOwnProperty;
  function primitive(value) { return value === null || (typeof value !== 'object' && typeof value !== 'function'); }
  function asIs(value) { return primitive(value) || isArray(value) || value.toJSON !== undefined; }
  function empty(value) {
    if (primitive(value)) return true;
    if (typeof value !== 'object' || value.toJSON !== undefined) return false;
    for (var key in value) if (hasOwn.call(value, key)) return false;
    return true;
  }
  function answersItself(overrides) {
    if (primitive(overrides)) return false;
    if (overrides.toJSON !== undefined) return true;
    var code = overrides.ResponseCode;
    return !primitive(code) || (typeof code === 'number' && code >= 100);
  }
  function changesOnly(processed, sentBody, sentUrl) {
    var request = processed.Request;
    if (asIs(processed) || asIs(request)) return processed;
    // Of the object, what the gateway reads (request-hook.ts parseReturn), when JSON would hold it (own, enumerable).
    var out = {}, keys = ownKeys(processed), hasRequest = false, i, key;
    for (i = 0; i < keys.length; i++) {
      key = keys[i];
      if (key === 'Request') hasRequest = true;
      else if (key === 'SessionMeta' || key === 'Session' || key === 'AuthValue') out[key] = processed[key];
    }
    if (!hasRequest) return out;
    var changed = {}, body, hasBody = false, ignoreBody, value;
    keys = ownKeys(request);
    for (i = 0; i < keys.length; i++) {
      key = keys[i];
      value = request[key];
      switch (key) {
        case 'SetHeaders': case 'DeleteHeaders': case 'AddParams': case 'DeleteParams':
          if (!empty(value)) changed[key] = value;
          break;
        case 'URL':
          if (value !== sentUrl && value !== '' && !(primitive(value) && typeof value !== 'string')) changed.URL = value;
          break;
        case 'Body': hasBody = true; body = value; break;
        case 'IgnoreBody': ignoreBody = value; break;
        case 'ReturnOverrides':
          if (answersItself(value)) changed.ReturnOverrides = value;
          break;
      }
    }
    if (ignoreBody !== true) {
      if (hasBody && body !== sentBody) changed.Body = body;
      if (ignoreBody !== undefined && ignoreBody !== false && ignoreBody !== null) changed.IgnoreBody = ignoreBody;
    }
    out.Request = changed;
    return out;
  }

  function Meta(configuration) { this.configuration = configuration; }
  Meta.prototype.ProcessRequest = function (request) { global.log('Process Request Not Implemented'); return request; };
  Meta.prototype.DoProcessRequest = function (request, session, config) {
    var sentBody = request.Body, sentUrl = request.URL;
    request.Body = global.b64dec(sentBody);
    var processed = this.ProcessRequest(request, session, config);
    if (!processed) { global.log("Middleware didn't return request object!"); return undefined; }
    if (processed.Request) {
      processed.Request.Headers = {};
      processed.Request.Body = global.b64enc(processed.Request.Body);
    }
    return JSON.stringify(changesOnly(processed, sentBody, sentUrl));
  };
  Meta.prototype.DoProcessResponse = function (response, request, session, config) {
    var processed = this.ProcessResponse(response, request, session, config);
    if (!processed) { global.log("Middleware didn't return response object!"); return undefined; }
    return JSON.stringify(processed);
  };
  Meta.prototype.ReturnData = function (request, sessionMeta) { return { Request: request, SessionMeta: sessionMeta }; };
  Meta.prototype.ReturnAuthData = function (request, session) { return { Request: request, Session: session }; };
  Meta.prototype.ReturnResponseData = function (response, sessionMeta) { return { Response: response, SessionMeta: sessionMeta }; };
  function NewMiddleware(configuration) { Meta.call(this, configuration); }
  NewMiddleware.prototype = Object.create(Meta.prototype);
  NewMiddleware.prototype.constructor = NewMiddleware;
  NewMiddleware.prototype.NewProcessRequest = function (callback) { this.ProcessRequest = callback; };
  NewMiddleware.prototype.NewProcessResponse = function (callback) { this.ProcessResponse = callback; };
  function EventMeta() {}
  function NewEventHandler() {}
  NewEventHandler.prototype = Object.create(EventMeta.prototype);
  NewEventHandler.prototype.NewHandler = function (callback) { this.Handle = callback; };
  global.TykJS = {
    TykMiddleware: { MiddlewareComponentMeta: Meta, NewMiddleware: NewMiddleware },
    TykEventHandlers: { EventHandlerComponentMeta: EventMeta, NewEventHandler: NewEventHandler },
  };

  // One call: {kind: 'middleware', name, args: [request, session, spec]} runs name.DoProcessRequest;
  // 'response' runs name.DoProcessResponse; 'virtual' runs the function named. Answers 'R' + the function's string,
  // 'U' when it returned no string, 'E' + a description of what it threw: always a primitive, made here, under the
  // call's time limit (the worker never reads a plugin's object, whose getters would run outside it).
  function run(job) {
    var target = global[job.name];
    if (job.kind === 'virtual') {
      if (typeof target !== 'function') throw new Error('no function named ' + job.name);
      return target.apply(undefined, job.args);
    }
    if (!target || typeof target !== 'object') throw new Error('no middleware object named ' + job.name);
    return job.kind === 'response' ? target.DoProcessResponse.apply(target, job.args) : target.DoProcessRequest.apply(target, job.args);
  }
  Object.defineProperty(global, '__gwArgs', { value: '', writable: true, configurable: false, enumerable: false });
  Object.defineProperty(global, '__gwCall', {
    configurable: false,
    writable: false,
    enumerable: false,
    value: function () {
      var args = global.__gwArgs;
      global.__gwArgs = '';
      try {
        var out = run(JSON.parse(args));
        return typeof out === 'string' ? 'R' + out : 'U';
      } catch (error) {
        var message;
        try { message = String(error && error.message !== undefined ? error.message : error); } catch (e) { message = 'the plugin threw'; }
        return 'E' + message;
      }
    },
  });
})(globalThis);
`;
