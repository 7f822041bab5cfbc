//go:build !wasip1

// The engine as a native process (one per gateway, started and restarted by src/gateway/template/native-executor.ts),
// speaking a small framed protocol on stdin/stdout; the work itself is engine.go's, so outputs and errors are the
// WebAssembly build's. Frames are processed one at a time, in order; replies are flushed whenever no further
// request is already waiting, so a burst of requests costs one write. It exits when its stdin closes (the gateway
// is gone) or when its parent is no longer the gateway named in GW_PARENT_PID (src/config/stop-request.ts); a
// template that loops is stopped by the gateway killing this process. SIGINT and SIGTERM are ignored: a Ctrl-C or a
// stop sent to the gateway's process group must not fail the transforms the gateway finishes while it drains. It never logs (a body must never reach a log).
//
// Frames (integers little-endian; every frame starts with u32 length of what follows):
//
//	gateway -> engine
//	  op 1 compile   u32 key, u32 nameLen, name, source            (no reply; a parse error is kept and becomes
//	                                                                that key's execution error)
//	  op 2 execute   u32 id, u32 key, u8 format, u32 inputLen, input, extra (the rest: a JSON object, or empty)
//	  op 3 release   u32 key                                       (no reply)
//	engine -> gateway (one per execute, in order)
//	                 u32 id, u8 status (0 output, 1 template failed, 2 body undecodable), output or message
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"
)

const (
	opCompile = 1
	opExecute = 2
	opRelease = 3
)

// maxFrame bounds one request frame (the gateway bounds bodies far below this).
const maxFrame = 1 << 30

var compileErrors = map[uint32]string{}

// The heap is a few MB between requests, so the default GOGC=100 collects every few hundred transforms; 400 costs
// about 10% less CPU per transform (measured: 31 against 35 µs for bench/proxy's template), and the memory limit
// keeps a burst of large bodies from growing the heap fourfold unchecked.
const (
	gcPercent   = 400
	memoryLimit = 256 << 20
)

func main() {
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit)
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	go exitWhenOrphaned()
	in := bufio.NewReaderSize(os.Stdin, 256<<10)
	out := bufio.NewWriterSize(os.Stdout, 256<<10)
	if err := serve(in, out); err != nil && !errors.Is(err, io.EOF) {
		os.Exit(3)
	}
}

func serve(in *bufio.Reader, out *bufio.Writer) error {
	var header [4]byte
	frame := make([]byte, 0, 64<<10)
	for {
		if _, err := io.ReadFull(in, header[:]); err != nil {
			return err
		}
		size := binary.LittleEndian.Uint32(header[:])
		if size == 0 || size > maxFrame {
			return errors.New("bad frame length")
		}
		if uint32(cap(frame)) < size {
			frame = make([]byte, size)
		}
		frame = frame[:size]
		if _, err := io.ReadFull(in, frame); err != nil {
			return err
		}
		if err := handle(frame, out); err != nil {
			return err
		}
		if in.Buffered() == 0 {
			if err := out.Flush(); err != nil {
				return err
			}
		}
	}
}

func handle(frame []byte, out *bufio.Writer) error {
	op, rest := frame[0], frame[1:]
	switch op {
	case opCompile:
		if len(rest) < 8 {
			return errors.New("short compile frame")
		}
		key, nameLen := binary.LittleEndian.Uint32(rest), binary.LittleEndian.Uint32(rest[4:])
		if uint32(len(rest)-8) < nameLen {
			return errors.New("short compile frame")
		}
		name, source := string(rest[8:8+nameLen]), string(rest[8+nameLen:])
		delete(compileErrors, key)
		if err := compileAs(key, name, source); err != nil {
			compileErrors[key] = err.Error()
		}
		return nil
	case opRelease:
		if len(rest) < 4 {
			return errors.New("short release frame")
		}
		key := binary.LittleEndian.Uint32(rest)
		releaseTemplate(key)
		delete(compileErrors, key)
		return nil
	case opExecute:
		if len(rest) < 13 {
			return errors.New("short execute frame")
		}
		id, key, format := binary.LittleEndian.Uint32(rest), binary.LittleEndian.Uint32(rest[4:]), uint32(rest[8])
		inputLen := binary.LittleEndian.Uint32(rest[9:])
		if uint32(len(rest)-13) < inputLen {
			return errors.New("short execute frame")
		}
		input, extra := rest[13:13+inputLen], rest[13+inputLen:]
		var result []byte
		var status uint32
		if message, failed := compileErrors[key]; failed {
			result, status = []byte(message), statusFailed
		} else {
			result, status = executeTemplate(key, input, format, extra)
		}
		return reply(out, id, status, result)
	}
	return errors.New("unknown op " + strconv.Itoa(int(op)))
}

func reply(out *bufio.Writer, id, status uint32, payload []byte) error {
	var head [9]byte
	binary.LittleEndian.PutUint32(head[:], uint32(5+len(payload)))
	binary.LittleEndian.PutUint32(head[4:], id)
	head[8] = byte(status)
	if _, err := out.Write(head[:]); err != nil {
		return err
	}
	_, err := out.Write(payload)
	return err
}

// exitWhenOrphaned ends the process once its parent is no longer the gateway that started it (GW_PARENT_PID), as
// every child of a gw process does; a closed stdin usually ends it first.
func exitWhenOrphaned() {
	parent, err := strconv.Atoi(os.Getenv("GW_PARENT_PID"))
	if err != nil || parent <= 1 {
		return
	}
	for range time.Tick(500 * time.Millisecond) {
		if os.Getppid() != parent {
			os.Exit(0)
		}
	}
}
