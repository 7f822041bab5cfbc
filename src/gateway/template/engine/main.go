// The body-transform engine: Go's own text/template with sprig v3 (GenericFuncMap minus env and expandenv, as the
// anchor) plus jsonMarshal and xmlMarshal, compiled to WebAssembly (GOOS=wasip1, -buildmode=c-shared) and driven by
// src/gateway/template/engine.ts through the exports below. It owns parsing a request body (JSON or XML) into the
// map the anchor builds and executing a compiled template over it; it never touches the network, the filesystem or
// the environment, and it never logs (a body must never reach a log).
//
// ABI (all integers are i32; memory is this module's linear memory):
//
//	alloc(size) -> ptr             a buffer the host fills; kept alive until free(ptr)
//	free(ptr)
//	compile(namePtr, nameLen, srcPtr, srcLen) -> handle > 0, or 0 with Go's parse error in the result buffer
//	release(handle)                drops a compiled template
//	execute(handle, inPtr, inLen, format, extraPtr, extraLen) -> 0 with the output in the result buffer,
//	                               1 (the template failed) or 2 (the body does not decode as format) with the
//	                               error message there
//	                               format: 0 = JSON, 1 = XML; extra: a JSON object whose keys are merged into the
//	                               root map (the host passes _gw_meta and _gw_context there), or extraLen 0
//	result_ptr() / result_len()    the last compile/execute's result buffer, valid until the next call
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"text/template"
)

func main() {}

var (
	buffers   = map[uint32][]byte{}
	templates = map[uint32]*template.Template{}
	nextID    uint32
	result    []byte
)

//go:wasmexport alloc
func alloc(size uint32) uint32 {
	if size == 0 {
		size = 1
	}
	buf := make([]byte, size)
	ptr := bufferAddress(buf)
	buffers[ptr] = buf
	return ptr
}

//go:wasmexport free
func free(ptr uint32) { delete(buffers, ptr) }

//go:wasmexport result_ptr
func resultPtr() uint32 {
	if len(result) == 0 {
		return 0
	}
	return bufferAddress(result)
}

//go:wasmexport result_len
func resultLen() uint32 { return uint32(len(result)) }

//go:wasmexport compile
func compile(namePtr, nameLen, srcPtr, srcLen uint32) (handle uint32) {
	defer recoverInto(&handle, 0)
	tmpl, err := parseTemplate(string(view(namePtr, nameLen)), string(view(srcPtr, srcLen)))
	if err != nil {
		result = []byte(err.Error())
		return 0
	}
	nextID++
	templates[nextID] = tmpl
	result = nil
	return nextID
}

//go:wasmexport release
func release(handle uint32) { delete(templates, handle) }

//go:wasmexport execute
func execute(handle, inPtr, inLen, format, extraPtr, extraLen uint32) (status uint32) {
	defer recoverInto(&status, 1)
	out, err := run(handle, view(inPtr, inLen), format, view(extraPtr, extraLen))
	if err != nil {
		result = []byte(err.Error())
		var undecodable bodyError
		if errors.As(err, &undecodable) {
			return 2
		}
		return 1
	}
	result = out
	return 0
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

// output is reused by every execute (the result buffer is only valid until the next call, and the host copies it);
// one grown past maxKeptOutput by a large result is dropped rather than kept for the instance's life.
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

// recoverInto turns a panic into a failed call with its message as the result: a panic escaping an export would
// kill the instance, and with it every API's templates.
func recoverInto(status *uint32, failed uint32) {
	if caught := recover(); caught != nil {
		result = []byte(fmt.Sprint("template engine panic: ", caught))
		*status = failed
	}
}

// bodyError: the request body does not decode as its declared format (the client's fault, not the template's).
type bodyError struct{ error }

func (e bodyError) Unwrap() error { return e.error }
