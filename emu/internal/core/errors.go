package core

import (
	"errors"
	"fmt"
)

// Errors returned by stepping.
var (
	// ErrEnded is returned by Step and Run once the wave has executed
	// s_endpgm.
	ErrEnded = errors.New("emu: the wave has ended")
	// ErrNoHistory is returned by StepBack when no earlier step is recorded.
	ErrNoHistory = errors.New("emu: no earlier step in history")
	// ErrFaulted is returned by Step and Run after a fault stopped the wave;
	// StepBack undoes the faulting step's partial effects and resumes.
	ErrFaulted = errors.New("emu: the wave stopped on a fault")
)

// Fault is a memory violation: an access to an address no allocation maps.
// Like a GPU memory violation it stops the wave; it names the instruction,
// the lane (-1 for a scalar access) and the address.
type Fault struct {
	PC     uint64 // byte address of the faulting instruction
	Lane   int    // -1 for scalar (SMEM) accesses
	Addr   uint64 // the first unmapped byte address accessed
	Size   int    // bytes of the access
	Write  bool
	Reason string // "unmapped", or a rule the access broke
}

func (f *Fault) Error() string {
	rw := "read"
	if f.Write {
		rw = "write"
	}
	lane := "scalar"
	if f.Lane >= 0 {
		lane = fmt.Sprintf("lane %d", f.Lane)
	}
	return fmt.Sprintf("memory fault at pc 0x%x (%s): %s of %d bytes at 0x%x: %s", f.PC, lane, rw, f.Size, f.Addr, f.Reason)
}

// ExecError reports an instruction the emulator cannot execute: an opcode
// it does not implement, an operand it cannot use, or a jump outside the
// program. It names the PC and the operation.
type ExecError struct {
	PC  uint64
	Op  string
	Msg string
}

func (e *ExecError) Error() string {
	return fmt.Sprintf("pc 0x%x: %s: %s", e.PC, e.Op, e.Msg)
}
