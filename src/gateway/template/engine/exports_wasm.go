//go:build wasip1

// The engine's WebAssembly face (GOOS=wasip1, -buildmode=c-shared), driven by src/gateway/template/engine.ts
// through the exports below; the work itself is engine.go's. It owns moving bytes across the boundary only.
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

import "fmt"

func main() {}

var (
	buffers = map[uint32][]byte{}
	nextID  uint32
	result  []byte
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
	defer func() {
		if caught := recover(); caught != nil {
			result, handle = []byte(fmt.Sprint("template engine panic: ", caught)), 0
		}
	}()
	nextID++
	if err := compileAs(nextID, string(view(namePtr, nameLen)), string(view(srcPtr, srcLen))); err != nil {
		result = []byte(err.Error())
		return 0
	}
	result = nil
	return nextID
}

//go:wasmexport release
func release(handle uint32) { releaseTemplate(handle) }

//go:wasmexport execute
func execute(handle, inPtr, inLen, format, extraPtr, extraLen uint32) uint32 {
	out, status := executeTemplate(handle, view(inPtr, inLen), format, view(extraPtr, extraLen))
	result = out
	return status
}
