//go:build wasip1

// Addresses of Go byte slices in the module's linear memory, as the host sees them. Go's collector does not move
// objects, so an address stays valid while the slice is referenced (buffers keeps host-owned ones referenced).
package main

import "unsafe"

func bufferAddress(buf []byte) uint32 { return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(buf)))) }

// view is the host's bytes in place (no copy): valid until the buffer is freed.
func view(ptr, length uint32) []byte {
	if length == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(uintptr(ptr))), length)
}
