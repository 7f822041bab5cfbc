// The body-transform engine's core, the same in both builds: templates compiled once and kept by handle, and
// executing one over a request body (JSON or XML, body.go) with the host's extra root keys. Built to WebAssembly
// (exports_wasm.go, driven in-process by src/gateway/template/engine.ts) and natively (serve_native.go, a
// long-lived process per gateway driven by src/gateway/template/native-executor.ts); both run exactly this code, so
// outputs and error messages are the same whichever the gateway uses. It never touches the network, the
// filesystem or the environment, and it never logs (a body must never reach a log).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"text/template"
)

var templates = map[uint32]*template.Template{}

// compileAs parses source under name and keeps it as handle.
func compileAs(handle uint32, name, source string) error {
	tmpl, err := parseTemplate(name, source)
	if err != nil {
		return err
	}
	templates[handle] = tmpl
	return nil
}

func releaseTemplate(handle uint32) { delete(templates, handle) }

// Execution statuses, as both hosts read them.
const (
	statusOK          = 0
	statusFailed      = 1 // the template failed (or the engine panicked)
	statusUndecodable = 2 // the body does not decode as its declared format
)

// executeTemplate runs handle over input; the output is only valid until the next call (the buffer is reused).
func executeTemplate(handle uint32, input []byte, format uint32, extra []byte) (out []byte, status uint32) {
	defer func() {
		// A panic escaping would kill the engine, and with it every API's templates.
		if caught := recover(); caught != nil {
			out, status = []byte(fmt.Sprint("template engine panic: ", caught)), statusFailed
		}
	}()
	result, err := run(handle, input, format, extra)
	if err != nil {
		var undecodable bodyError
		if errors.As(err, &undecodable) {
			return []byte(err.Error()), statusUndecodable
		}
		return []byte(err.Error()), statusFailed
	}
	return result, statusOK
}

func run(handle uint32, input []byte, format uint32, extra []byte) ([]byte, error) {
	tmpl, ok := templates[handle]
	if !ok {
		return nil, errors.New("unknown template handle")
	}
	data, err := decodeBody(input, format)
	if err != nil {
		return nil, bodyError{err}
	}
	if len(extra) > 0 {
		fields, err := decodeExtra(extra)
		if err != nil {
			return nil, err
		}
		for name, value := range fields {
			data[name] = value
		}
	}
	if output.Cap() > maxKeptOutput {
		output = bytes.Buffer{}
	}
	output.Reset()
	if err := tmpl.Execute(&output, data); err != nil {
		return nil, err
	}
	return output.Bytes(), nil
}

// output is reused by every execute (the result is only valid until the next call, and the host copies it); one
// grown past maxKeptOutput by a large result is dropped rather than kept for the engine's life.
var output bytes.Buffer

const maxKeptOutput = 1 << 20

// decodeExtra is json.Unmarshal(extra, &map[string]interface{}): the fast decoder when extra is a JSON object,
// encoding/json (and so its errors) for anything else.
func decodeExtra(extra []byte) (map[string]interface{}, error) {
	if value, ok := decodeJSONFast(extra); ok {
		if fields, isObject := value.(map[string]interface{}); isObject {
			return fields, nil
		}
	}
	var fields map[string]interface{}
	err := json.Unmarshal(extra, &fields)
	return fields, err
}

// bodyError: the request body does not decode as its declared format (the client's fault, not the template's).
type bodyError struct{ error }

func (e bodyError) Unwrap() error { return e.error }
