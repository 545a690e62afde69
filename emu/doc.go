// Package emu executes decoded GCN instructions: wave state, memory, the
// scalar data cache, counters with a latency model, whole-grid dispatch,
// and debugging sessions with reverse execution. It consumes isa.Inst
// values and never imports the user interface.
//
//	m := emu.NewMachine(prog, mem, emu.DefaultConfig(isa.GFX9))
//	rec, err := m.Step()          // one instruction, with its StepRecord
//	res, err := m.Run(ctx, 1e6)   // the fast engine: budget, breakpoints, ctx
//	p, ok := m.Preview()          // what the next instruction will do
//	s, err := emu.OpenSession(ctx, launch, gridCfg, wave) // a work-group under debug
//	res, err := emu.RunGrid(ctx, launch, gridCfg)         // every work-group
//
// Where things live. The engine is three internal packages; emu itself
// runs machines, sessions and grids on them and re-exports their public
// types (api.go):
//
//	internal/core   the state both engines share: wave registers and slots, the compiled
//	                program, memory and its page log, the scalar cache, counters and
//	                s_waitcnt, the journal and step records, Env (what a wave reaches)
//	internal/ref    the reference engine: each instruction's meaning once, per lane, by
//	                encoding (sop1, sop2, sopc_sopk, sopp, smem*, valu_*, vmem_*, ds_*),
//	                and the next instruction's preview computed by the same functions
//	internal/fast   the fast engine: fast forms chosen at compile time (forms.go), whole-
//	                register VALU rows, whole-wave vector memory, LDS; never records
//	internal/lanes  the AVX2 rows and their pure-Go twins the fast engine calls
//
// In emu (file name prefixes):
//
//	machine*, program           Machine: Step, Run, Reset; compile builds each instruction's
//	                            reference form and fast form, and form picks one per step
//	decode, snapshot, preview   programs from code objects; snapshots; Machine.Preview
//	checkpoint*, replay*        reverse execution: group checkpoints, schedule log, replay
//	session*                    a debugging session: waves, barriers, breakpoints, watchpoints, stops
//	grid_*, dispatch_*, kernarg, launch   a whole dispatch: ABI set-up, work-group scheduling, workers, progress
//
// Step records list every effect of an instruction (register changes per
// lane, memory writes, counter changes, operations issued and completed,
// cache events, decoded addresses with range checks, hazards, stall cycles).
// Memory faults stop the wave with a *Fault naming PC, lane and address;
// instructions the emulator cannot execute stop it with an *ExecError.
// Nothing panics on bad input.
//
// Instruction facts (branch conditions, barriers, calls, memory access size,
// sign and atomic kind, waitcnt layout per generation) come from isa's
// generated tables. RATIONALE.md indexes the rulings on points the manuals
// leave open (RATIONALE-smem.md, -vmem.md, -valu.md, -run.md).
package emu
