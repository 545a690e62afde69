package emu

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// formLines compile to fast forms of every kind emu's form picks between:
// SALU (per-operation, SOP2, move, branch), SMEM and s_waitcnt, VALU
// kernels and shapes (integer, f32, f64, compare, carry, cndmask, move),
// DS and global memory.
var formLines = []string{
	"s_mov_b32 s0, 3",
	"s_mov_b64 s[6:7], s[4:5]",
	"s_add_u32 s1, s0, 5",
	"s_mul_i32 s2, s1, s0",
	"s_xor_b32 s3, s2, s1",
	"s_load_dwordx4 s[12:15], s[4:5], 0x0",
	"s_load_dword s16, s[4:5], 0x40",
	"s_waitcnt lgkmcnt(0)",
	"v_lshlrev_b32_e32 v1, 2, v0",
	"v_add_u32_e32 v2, s1, v0",
	"v_add_f32_e32 v3, v2, v2",
	"v_mul_lo_u32 v4, v2, v0",
	"v_cmp_gt_u32_e32 vcc, 20, v0",
	"v_cndmask_b32_e32 v5, v1, v2, vcc",
	"v_add_co_u32_e32 v6, vcc, v0, v2",
	"v_mov_b32_e32 v7, s2",
	"v_add_f64 v[8:9], v[2:3], v[2:3]",
	"ds_write_b32 v1, v2",
	"ds_read_b32 v10, v1",
	"global_store_dword v1, v5, s[4:5] offset:256",
	"global_load_dword v11, v1, s[4:5] offset:256",
	"s_waitcnt vmcnt(0) lgkmcnt(0)",
	"s_cmp_lg_u32 s0, 0",
	"s_cbranch_scc1 1",
	"s_mov_b32 s0, 7",
	"s_cmp_eq_u32 s0, 0",
	"s_cbranch_scc1 1",
	"s_add_u32 s0, s0, s16",
	"s_endpgm",
}

// formMachine is a machine running formLines over a buffer and an LDS
// window, with history when hist is set.
func formMachine(t *testing.T, hist bool) *Machine {
	t.Helper()
	mem := core.NewMemory()
	if err := mem.Map("buf", bufAddr, 0x1000, false); err != nil {
		t.Fatal(err)
	}
	if err := mem.Map("lds", core.SharedApertureBase, 1<<16, false); err != nil {
		t.Fatal(err)
	}
	init := make([]byte, 0x1000)
	for i := range init {
		init[i] = byte(i * 7)
	}
	if err := mem.Write(bufAddr, init); err != nil {
		t.Fatal(err)
	}
	cfg := core.DefaultConfig(isa.GFX9)
	if !hist {
		cfg.HistoryBytes = 0
	}
	m := NewMachine(asmProgram(t, isa.GFX9, formLines...), mem, cfg)
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1024), Cfg: VMemConfig{LDSLatency: 4}, Ops: map[*isa.Inst]*ref.VmOp{}}
	m.SetSGPR(4, bufAddr)
	for l := 0; l < 64; l++ {
		m.SetVGPR(0, l, uint32(l))
	}
	return m
}

// formState is what an instruction may change: the wave's registers and
// state slots, the buffer and the LDS.
func formState(t *testing.T, m *Machine) string {
	t.Helper()
	buf, lds := make([]byte, 0x1000), make([]byte, 1024)
	if err := m.Mem.Read(bufAddr, buf); err != nil {
		t.Fatal(err)
	}
	if err := m.Mem.Read(core.SharedApertureBase, lds); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(m.w.S, m.w.V, buf, lds)
}

// TestJournaledStepTakesReferenceForm: a journaled step (Step) runs the
// reference form of every instruction that has a fast form, which records
// everything it changes: undoing the step (StepBack) restores the
// registers, the buffer and the LDS. A fast form records nothing; run in
// a journaled step, its writes would survive StepBack. The unjournaled
// run (fast forms) ends in the state the steps end in.
func TestJournaledStepTakesReferenceForm(t *testing.T) {
	m := formMachine(t, true)
	fast := 0
	for i := range m.w.Code {
		in := &m.w.Code[i]
		m.w.JOn = true
		if fnPtr(form(m.w, in)) != fnPtr(in.Ref) {
			t.Fatalf("%s: a journaled step does not run its reference form", in.Name)
		}
		m.w.JOn = false
		if fnPtr(in.Fn) != fnPtr(in.Ref) {
			fast++
		}
	}
	if fast < 20 {
		t.Fatalf("only %d of %d instructions have a fast form", fast, len(m.w.Code))
	}
	for n := 0; m.w.State() == core.Running; n++ {
		if n > len(formLines) {
			t.Fatal("the program does not end")
		}
		in := &m.w.Code[m.w.Pc()]
		before := formState(t, m)
		if _, err := m.Step(); err != nil {
			t.Fatalf("%s: %v", in.Name, err)
		}
		after := formState(t, m)
		if after == before {
			t.Fatalf("%s changed nothing", in.Name)
		}
		if err := m.StepBack(); err != nil {
			t.Fatalf("%s: StepBack: %v", in.Name, err)
		}
		if formState(t, m) != before {
			t.Fatalf("%s: StepBack does not restore the state: the journaled step ran a form that does not record", in.Name)
		}
		if _, err := m.Step(); err != nil || formState(t, m) != after {
			t.Fatalf("%s: stepped again: %v, or another state", in.Name, err)
		}
	}
	stepped := formState(t, m)
	run := formMachine(t, false)
	if res, err := run.Run(context.Background(), 0); err != nil || res.Reason != StopEnded {
		t.Fatalf("run: %v %v", res.Reason, err)
	}
	if formState(t, run) != stepped {
		t.Error("the unjournaled run ends in another state than the journaled steps")
	}
}

// TestCndmaskVGPRMaskReadsVCC: v_cndmask_b32_e64 whose mask operand
// encodes a VGPR pair (which LLVM rejects, and the differential sweep
// generates) selects by VCC in its fast form, as execVOP, its reference,
// does; the fast form read lane 0 of the VGPR pair.
func TestCndmaskVGPRMaskReadsVCC(t *testing.T) {
	for _, tc := range []struct {
		name       string
		src0, src1 uint32 // operand codes: VGPR 256+, SGPR
	}{
		{"v20, s40, v[6:7]", 256 + 20, 40},
		{"v20, v21, v[6:7]", 256 + 20, 256 + 21},
		{"s40, v21, v[6:7]", 40, 256 + 21},
	} {
		// VOP3 v_cndmask_b32 (opcode 0x100) v10, src0, src1, v6
		text := binary.LittleEndian.AppendUint32(nil, 0xd1000000|10)
		text = binary.LittleEndian.AppendUint32(text, tc.src0|tc.src1<<9|(256+6)<<18)
		p := DecodeProgram(isa.GFX9, 0, text)
		in := &p.Code[0]
		if in.Name != "v_cndmask_b32" || in.Src[2].Kind != core.OkV {
			t.Fatalf("%s: decoded %s, mask kind %d", tc.name, in.Name, in.Src[2].Kind)
		}
		if fnPtr(in.Fn) == fnPtr(in.Ref) {
			t.Fatalf("%s: compiled to its reference form only", tc.name)
		}
		r := rand.New(rand.NewPCG(17, uint64(tc.src0)))
		for it := 0; it < 50+len(edgeMasks); it++ {
			w0 := fastWave(r)
			if it >= 50 {
				withExec(w0, edgeMasks[it-50])
			}
			fastCheck(t, tc.name, w0, in, in.Ref, false)
		}
	}
}
