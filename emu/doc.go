// Package emu executes decoded GCN instructions: wave state, memory, the
// scalar data cache, counters with a latency model, and reversible step
// records. It consumes isa.Inst values and never imports the user
// interface.
//
// A front end builds a Program once (DecodeProgram, or NewProgram from
// decoded instructions), maps memory (NewMemory, Memory.Map/Alloc), and
// drives a Machine:
//
//	m := emu.NewMachine(prog, mem, emu.DefaultConfig(isa.GFX9))
//	rec, err := m.Step()          // one instruction, with its StepRecord
//	err = m.StepBack()            // exact undo from the history
//	res, err := m.Run(ctx, 1e6)   // budget, breakpoints, cancellation
//	snap := m.Snapshot()          // registers, counters, in-flight ops, cache
//
// Step records list every effect of an instruction (register changes per
// lane, memory writes, counter changes, operations issued and completed,
// cache events, decoded addresses with range checks, hazards, stall cycles);
// StepRecord.String is the canonical one-line trace. Memory faults stop the
// wave with a *Fault naming PC, lane and address; instructions the emulator
// cannot execute stop it with an *ExecError. Nothing panics on bad input.
//
// RATIONALE.md records the decisions behind the SMEM rules, the scalar
// cache, the latency model and floating-point exactness.
package emu
