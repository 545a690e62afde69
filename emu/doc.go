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
// Where things live (file name prefixes):
//
//	state, machine*, program, decode, operands, names   a wave's registers and slots; the compiled program
//	                 (instr: a reference form and a fast form per instruction; Wave.form picks one per step)
//	salu*, sopk, sopp, sop_forkjoin, sregs, sld_mov  SOP1/SOP2/SOPC/SOPK/SOPP (sregs: scalar operand access)
//	smem*, cache*, lines                   SMEM and the scalar data cache (smem_fast: the load fast form)
//	valu_ops, valu_defs*, valu_<kind>      VOP lane functions, the reference semantics, by kind
//	valu_fast*, valu_simd_f32, glue_*      VALU fast forms: whole-register rows (internal/lanes: AVX2 and pure Go)
//	vmem_op, vmem_buffer, vmem_format, vmem_lane, vmem_atomic   MUBUF/MTBUF/FLAT: addresses, formats, atomics
//	vmem_unit, vmem_wave, vmem_run, vmem_fast, vmem_rows        the vector memory unit and its fast forms
//	ds_*                                   LDS (ds_exec: reference; ds_fast: fast form)
//	counters, config                       VM_CNT/LGKM_CNT/EXP_CNT, s_waitcnt, the latency model
//	record, trace, history, snapshot       step records, the one-line trace, the undo journal, snapshots
//	preview*                               the next instruction's effect, computed by the executing functions
//	memory*                                the sparse paged address space, apertures, copy-on-write page log
//	checkpoint*, replay*                   reverse execution: group checkpoints, schedule log, replay
//	session*                               a debugging session: waves, barriers, breakpoints, watchpoints, stops
//	grid_*, dispatch_*, kernarg, launch    a whole dispatch: ABI set-up, work-group scheduling, workers, progress
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
