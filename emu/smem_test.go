package emu

import (
	"errors"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// The SMEM rules, each tested against the section of AMD's "Vega" ISA guide
// it checks (samples/REFERENCES.md) or against what llvm-mc-19 assembles.

const bufAddr = 0x1000

// smemMachine assembles lines and maps 4 KiB at bufAddr holding dword i = 0x100+i,
// with s[4:5] pointing at it.
func smemMachine(t *testing.T, lines ...string) *Machine {
	t.Helper()
	m := asmMachine(t, lines...)
	if err := m.Mem.Map("buf", bufAddr, 0x1000, false); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 0x400; i++ {
		m.Mem.WriteU32(bufAddr+uint64(4*i), 0x100+uint32(i))
	}
	m.SetSGPR(4, bufAddr)
	m.SetSGPR(5, 0)
	return m
}

func stepN(t *testing.T, m *Machine, n int) []*StepRecord {
	t.Helper()
	var out []*StepRecord
	for i := 0; i < n; i++ {
		out = append(out, mustStep(t, m))
	}
	return out
}

// Vega ISA §7.3 — results arrive later; LGKM_CNT +2 for a multi-dword
// fetch, +1 for one dword; s_waitcnt lgkmcnt(0) waits for them.
func TestSMEMLoadCounts(t *testing.T) {
	m := smemMachine(t, "s_load_dwordx2 s[0:1], s[4:5], 0x10", "s_load_dword s2, s[4:5], 0x0",
		"s_waitcnt lgkmcnt(0)", "s_endpgm")
	r := mustStep(t, m)
	if r.CountersAfter.LGKM != 2 {
		t.Errorf("after s_load_dwordx2 LGKM = %d, want 2 (Vega ISA §7.3)", r.CountersAfter.LGKM)
	}
	if m.w.S[0] != 0 {
		t.Errorf("s0 written at issue: %#x", m.w.S[0])
	}
	r = mustStep(t, m)
	if r.CountersAfter.LGKM != 3 {
		t.Errorf("after s_load_dword LGKM = %d, want 3 (Vega ISA §7.3)", r.CountersAfter.LGKM)
	}
	r = mustStep(t, m)
	if r.CountersAfter.LGKM != 0 || r.Stall == 0 {
		t.Errorf("s_waitcnt lgkmcnt(0): LGKM %d stall %d", r.CountersAfter.LGKM, r.Stall)
	}
	if m.w.S[0] != 0x104 || m.w.S[1] != 0x105 || m.w.S[2] != 0x100 {
		t.Errorf("loaded %#x %#x %#x", m.w.S[0], m.w.S[1], m.w.S[2])
	}
	if len(r.Completed) != 2 {
		t.Errorf("completed %d operations, want 2", len(r.Completed))
	}
}

// Vega ISA §7.2.1 — every address component is in bytes, and its low two
// bits are ignored and treated as zero.
func TestSMEMLowBitsIgnored(t *testing.T) {
	m := smemMachine(t, "s_load_dword s0, s[4:5], 0x13", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m.SetSGPR(4, bufAddr+3)
	run(t, m)
	if m.w.S[0] != 0x104 { // (0x1003&~3) + (0x13&~3) = 0x1010
		t.Errorf("s0 = %#x, want 0x104 (dword at 0x1010)", m.w.S[0])
	}
}

// As llvm-mc-19 assembles it, a GFX9 S_LOAD takes a signed 21-bit offset.
func TestSMEMNegativeOffset(t *testing.T) {
	m := smemMachine(t, "s_load_dword s0, s[4:5], -0x4", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m.SetSGPR(4, bufAddr+8)
	run(t, m)
	if m.w.S[0] != 0x101 {
		t.Errorf("s0 = %#x, want 0x101", m.w.S[0])
	}
}

// Vega ISA §7.2.1 — address table, IMM=1 SOE=1: SGPR[base] +
// inst_offset + SGPR[soffset]; IMM=0: SGPR[base] + SGPR[offset] or M0.
func TestSMEMAddressForms(t *testing.T) {
	m := smemMachine(t, "s_load_dword s0, s[4:5], s6 offset:0x10", "s_load_dword s1, s[4:5], s7",
		"s_load_dword s2, s[4:5], m0", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m.SetSGPR(6, 0x20)
	m.SetSGPR(7, 0x8)
	m.SetScalar(core.CodeM0, 0xc)
	run(t, m)
	if m.w.S[0] != 0x10c || m.w.S[1] != 0x102 || m.w.S[2] != 0x103 {
		t.Errorf("loaded %#x %#x %#x, want 0x10c 0x102 0x103", m.w.S[0], m.w.S[1], m.w.S[2])
	}
}

// Vega ISA §7.4 — S_BUFFER out of range: the operation is not performed:
// out-of-range dwords are not performed (the destination keeps its value),
// with the bound m_size in bytes (RATIONALE.md).
func TestSMEMBufferRange(t *testing.T) {
	m := smemMachine(t, "s_buffer_load_dwordx4 s[8:11], s[12:15], 0x4", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m.SetSGPR(12, bufAddr)
	m.SetSGPR(13, 0)  // stride 0
	m.SetSGPR(14, 12) // num_records: 12 bytes
	for i := 8; i < 12; i++ {
		m.SetSGPR(i, 0xdead)
	}
	r := mustStep(t, m)
	run(t, m)
	want := []uint32{0x101, 0x102, 0xdead, 0xdead}
	for i, w := range want {
		if m.w.S[8+i] != w {
			t.Errorf("s%d = %#x, want %#x", 8+i, m.w.S[8+i], w)
		}
	}
	if len(r.Addrs) != 4 || !r.Addrs[1].InRange || r.Addrs[2].InRange {
		t.Errorf("range outcomes %+v", r.Addrs)
	}
}

// V# stride != 0: the bound is num_records × stride bytes (RATIONALE.md on
// the m_size pseudocode, Vega ISA §7.2.1).
func TestSMEMBufferStride(t *testing.T) {
	m := smemMachine(t, "s_buffer_load_dwordx2 s[8:9], s[12:15], 0x8", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m.SetSGPR(12, bufAddr)
	m.SetSGPR(13, 4<<16) // stride 4
	m.SetSGPR(14, 3)     // 3 records: 12 bytes
	m.SetSGPR(9, 0xdead)
	run(t, m)
	if m.w.S[8] != 0x102 || m.w.S[9] != 0xdead {
		t.Errorf("s[8:9] = %#x %#x, want 0x102 0xdead", m.w.S[8], m.w.S[9])
	}
}

// Vega ISA §7.4 — an SDST out of range means the instruction is not executed,
// and SDATA's alignment; §7.1 — SDATA is an SGPR or VCC, never EXEC or M0.
func TestSMEMSDataRules(t *testing.T) {
	m := machine(t,
		I("s_load_dwordx2", sregN(core.CodeExec, 2), sreg2(4), imm(0)).with(func(md *isa.Modifiers) { md.Imm = true }),
		I("s_load_dwordx2", sregN(1, 2), sreg2(4), imm(0)).with(func(md *isa.Modifiers) { md.Imm = true }),
		I("s_waitcnt", imm(0)), I("s_endpgm"))
	m.Mem.Map("buf", bufAddr, 0x100, false)
	m.Mem.WriteU64(bufAddr, 0x1111_2222_3333_4444)
	m.SetSGPR(4, bufAddr)
	r := mustStep(t, m)
	if r.CountersAfter.LGKM != 0 || len(r.Notes) == 0 {
		t.Errorf("SDATA=exec: executed (LGKM %d, notes %q)", r.CountersAfter.LGKM, r.Notes)
	}
	r = mustStep(t, m)
	if len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "aligned") {
		t.Errorf("misaligned SDATA not noted: %q", r.Notes)
	}
	run(t, m)
	if m.w.S[0] != 0x33334444 || m.w.S[1] != 0x11112222 {
		t.Errorf("misaligned s[1:2] load went to s[0:1] = %#x %#x", m.w.S[0], m.w.S[1])
	}
	if m.w.Exec() != ^uint64(0) {
		t.Errorf("EXEC changed")
	}
}

// Vega ISA §7.4 — an SBASE out of range reads SGPR0's value.
func TestSMEMSBaseOutOfRange(t *testing.T) {
	m := machine(t,
		I("s_buffer_load_dword", sreg(8), sregN(100, 4), imm(0)).with(func(md *isa.Modifiers) { md.Imm = true }),
		I("s_waitcnt", imm(0)), I("s_endpgm"))
	m.Mem.Map("buf", bufAddr, 0x100, false)
	m.Mem.WriteU32(bufAddr, 77)
	m.SetSGPR(0, bufAddr)
	m.SetSGPR(2, 16)
	r := mustStep(t, m)
	run(t, m)
	if m.w.S[8] != 77 || len(r.Notes) == 0 {
		t.Errorf("s8 = %d notes %q; want 77 through s0", m.w.S[8], r.Notes)
	}
}

// Vega ISA §7.3 — SMEM returns out of
// order: a later hit overtakes an earlier miss.
func TestSMEMOutOfOrder(t *testing.T) {
	m := smemMachine(t, "s_load_dword s0, s[4:5], 0x0", "s_waitcnt lgkmcnt(0)",
		"s_load_dword s1, s[4:5], 0x400", // miss
		"s_load_dword s2, s[4:5], 0x4",   // hit
		"s_sleep 1", "s_nop 0", "s_endpgm")
	stepN(t, m, 4)
	r := mustStep(t, m) // s_sleep 1: 64 cycles; the hit completes, the miss not
	if m.w.S[2] != 0x101 || m.w.S[1] != 0 {
		t.Fatalf("after 64 cycles s1=%#x s2=%#x; want the hit (s2) only", m.w.S[1], m.w.S[2])
	}
	if len(r.Completed) != 1 || r.CountersAfter.LGKM != 1 {
		t.Errorf("completed %v, LGKM %d", r.Completed, r.CountersAfter.LGKM)
	}
}

// Reading an SGPR whose load is in flight gets the old value and records a
// hazard (the missing s_waitcnt bug).
func TestSMEMHazard(t *testing.T) {
	m := smemMachine(t, "s_load_dword s0, s[4:5], 0x0", "s_add_u32 s1, s0, 1", "s_endpgm")
	m.SetSGPR(0, 41)
	mustStep(t, m)
	r := mustStep(t, m)
	if m.w.S[1] != 42 {
		t.Errorf("s1 = %d, want the old s0 + 1 = 42", m.w.S[1])
	}
	if len(r.Hazards) != 1 || r.Hazards[0].Reg != "s0" || r.Hazards[0].PendingPC != 0 {
		t.Errorf("hazards %+v", r.Hazards)
	}
}

// Stores: GLC=0 write-combines in the cache (memory unchanged until
// s_dcache_wb); GLC=1 writes through.
func TestSMEMStores(t *testing.T) {
	m := smemMachine(t, "s_store_dword s0, s[4:5], 0x0", "s_store_dword s1, s[4:5], 0x40 glc",
		"s_dcache_wb", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m.SetSGPR(0, 0xaaaa)
	m.SetSGPR(1, 0xbbbb)
	stepN(t, m, 2)
	if v, _ := m.Mem.ReadU32(bufAddr); v != 0x100 {
		t.Errorf("write-combined store reached memory: %#x", v)
	}
	if v, _ := m.Mem.ReadU32(bufAddr + 0x40); v != 0xbbbb {
		t.Errorf("GLC store did not write through: %#x", v)
	}
	r := mustStep(t, m)
	if v, _ := m.Mem.ReadU32(bufAddr); v != 0xaaaa {
		t.Errorf("s_dcache_wb did not write back: %#x", v)
	}
	if len(r.Cache) != 1 || r.Cache[0].Kind != core.CacheWriteBack || len(r.Mem) != 1 {
		t.Errorf("events %+v mem %d", r.Cache, len(r.Mem))
	}
	run(t, m)
}

// The scalar cache is not coherent with vector memory: a write behind it
// leaves the line stale until s_dcache_inv; GLC loads miss-evict.
func TestSMEMStaleLine(t *testing.T) {
	m := smemMachine(t, "s_load_dword s0, s[4:5], 0x0", "s_waitcnt lgkmcnt(0)",
		"s_load_dword s1, s[4:5], 0x0", "s_load_dword s2, s[4:5], 0x0 glc", "s_waitcnt lgkmcnt(0)",
		"s_dcache_inv", "s_load_dword s3, s[4:5], 0x0", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	stepN(t, m, 2)
	m.Mem.WriteU32(bufAddr, 0x999) // as a vector store would
	stepN(t, m, 3)
	if m.w.S[1] != 0x100 || m.w.S[2] != 0x999 {
		t.Errorf("stale load s1=%#x (want 0x100), GLC load s2=%#x (want 0x999)", m.w.S[1], m.w.S[2])
	}
	m.Mem.WriteU32(bufAddr, 0x777)
	run(t, m)
	if m.w.S[3] != 0x777 {
		t.Errorf("after s_dcache_inv s3=%#x, want 0x777", m.w.S[3])
	}
}

// s_dcache_inv_vol invalidates only volatile lines.
func TestSMEMInvVol(t *testing.T) {
	m := smemMachine(t, "s_load_dword s0, s[4:5], 0x0", "s_load_dword s1, s[6:7], 0x0", "s_waitcnt lgkmcnt(0)",
		"s_dcache_inv_vol", "s_endpgm")
	m.Mem.Map("vol", 0x8000, 0x100, true)
	m.SetSGPR(6, 0x8000)
	run(t, m)
	valid := 0
	for _, l := range m.Snapshot().Cache {
		if l.Valid {
			valid++
			if l.Volatile {
				t.Errorf("volatile line %#x survived", l.Addr)
			}
		}
	}
	if valid != 1 {
		t.Errorf("%d valid lines, want 1", valid)
	}
}

// Vega ISA §12.6, S_DCACHE_DISCARD — drops a dirty line (no write-back),
// LGKM +1.
func TestSMEMDiscard(t *testing.T) {
	m := smemMachine(t, "s_store_dword s0, s[4:5], 0x0", "s_dcache_discard s[4:5], 0x4", "s_dcache_wb", "s_endpgm")
	m.SetSGPR(0, 0xaaaa)
	mustStep(t, m)
	r := mustStep(t, m)
	if r.CountersAfter.LGKM-r.CountersBefore.LGKM != 1 {
		t.Errorf("discard LGKM +%d", r.CountersAfter.LGKM-r.CountersBefore.LGKM)
	}
	run(t, m)
	if v, _ := m.Mem.ReadU32(bufAddr); v != 0x100 {
		t.Errorf("discarded data reached memory: %#x", v)
	}
}

// GFX9 scalar atomics: GLC returns the pre-operation value
// (Vega ISA §7.2.2 Scalar Atomic Operations).
func TestSMEMAtomics(t *testing.T) {
	m := smemMachine(t, "s_atomic_add s0, s[4:5], 0x0 glc", "s_atomic_cmpswap s[2:3], s[4:5], 0x4 glc",
		"s_atomic_inc s6, s[4:5], 0x8", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m.SetSGPR(0, 5)
	m.SetSGPR(2, 0x55)  // new
	m.SetSGPR(3, 0x101) // compare
	m.SetSGPR(6, 0x102) // inc limit: 0x102 >= 0x102 wraps to 0
	run(t, m)
	if m.w.S[0] != 0x100 || m.w.S[2] != 0x101 {
		t.Errorf("returned %#x %#x, want 0x100 0x101", m.w.S[0], m.w.S[2])
	}
	for i, w := range []uint32{0x105, 0x55, 0} {
		if v, _ := m.Mem.ReadU32(bufAddr + uint64(4*i)); v != w {
			t.Errorf("mem[%d] = %#x, want %#x", i, v, w)
		}
	}
}

// Vega ISA §7.2.4, §7.3 — S_MEMTIME returns the clock, counted as a
// two-dword fetch.
func TestSMEMMemtime(t *testing.T) {
	m := smemMachine(t, "s_nop 7", "s_memtime s[0:1]", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	mustStep(t, m)
	c := m.Cycle()
	r := mustStep(t, m)
	if r.CountersAfter.LGKM != 2 {
		t.Errorf("LGKM = %d", r.CountersAfter.LGKM)
	}
	run(t, m)
	if m.w.S[0] != uint32(c) {
		t.Errorf("memtime = %d, want %d", m.w.S[0], c)
	}
}

// Unmapped addresses stop the wave with a fault naming PC and address.
func TestSMEMFault(t *testing.T) {
	m := smemMachine(t, "s_nop 0", "s_load_dword s0, s[4:5], 0x0", "s_endpgm")
	m.SetSGPR(4, 0xdead0000)
	mustStep(t, m)
	_, err := m.Step()
	var f *Fault
	if !errors.As(err, &f) || f.PC != 4 || f.Addr != 0xdead0000 || f.Lane != -1 {
		t.Fatalf("err = %v", err)
	}
	if m.State() != core.Faulted || m.PC() != 4 {
		t.Errorf("state %v pc %#x", m.State(), m.PC())
	}
	if _, err := m.Step(); !errors.Is(err, core.ErrFaulted) {
		t.Errorf("step after fault: %v", err)
	}
	if err := m.StepBack(); err != nil || m.State() != core.Running {
		t.Errorf("step back: %v %v", err, m.State())
	}
}

// Evicting a dirty line writes it back.
func TestCacheEviction(t *testing.T) {
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.Cache = CacheConfig{Size: 256, Ways: 2} // 2 sets × 2 ways
	p := asmProgram(t, isa.GFX9, "s_store_dword s0, s[4:5], 0x0", "s_load_dword s1, s[4:5], 0x80",
		"s_load_dword s2, s[4:5], 0x100", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m := NewMachine(p, nil, cfg)
	m.Mem.Map("buf", bufAddr, 0x1000, false)
	m.SetSGPR(4, bufAddr)
	m.SetSGPR(0, 0xabc)
	stepN(t, m, 2)
	r := mustStep(t, m)
	var kinds []string
	for _, e := range r.Cache {
		kinds = append(kinds, e.Kind.String())
	}
	if got := strings.Join(kinds, ","); got != "write-back,evict,miss" {
		t.Errorf("events %s", got)
	}
	if v, _ := m.Mem.ReadU32(bufAddr); v != 0xabc {
		t.Errorf("evicted dirty line not written back: %#x", v)
	}
}

// s_waitcnt fields, as emu reads them from isa: GFX8 vmcnt [3:0], expcnt
// [6:4], lgkmcnt [11:8]; GFX9 adds vmcnt [15:14].
func TestWaitcntFields(t *testing.T) {
	for _, tc := range []struct {
		t            isa.Target
		simm         uint16
		vm, exp, lgk int
	}{
		{isa.GFX8, 0x0f7f, 15, 7, 15},
		{isa.GFX8, 0xc070, 0, 7, 0},
		{isa.GFX9, 0xc070, 48, 7, 0},
		{isa.GFX9, 0x0325, 5, 2, 3},
	} {
		c := isa.WaitcntFields(tc.t, tc.simm)
		vm, exp, lgk := c.VM, c.EXP, c.LGKM
		if vm != tc.vm || exp != tc.exp || lgk != tc.lgk {
			t.Errorf("%v %#x: %d %d %d, want %d %d %d", tc.t, tc.simm, vm, exp, lgk, tc.vm, tc.exp, tc.lgk)
		}
	}
}

// S_BUFFER_ATOMIC_* check the V# range: out of range is not performed.
func TestSMEMBufferAtomic(t *testing.T) {
	m := smemMachine(t, "s_buffer_atomic_add s0, s[8:11], 0x0 glc", "s_buffer_atomic_add s1, s[8:11], 0x10 glc",
		"s_waitcnt lgkmcnt(0)", "s_endpgm")
	m.SetSGPR(8, bufAddr)
	m.SetSGPR(10, 16)
	m.SetSGPR(0, 1)
	m.SetSGPR(1, 7)
	run(t, m)
	if v, _ := m.Mem.ReadU32(bufAddr); v != 0x101 || m.w.S[0] != 0x100 {
		t.Errorf("in range: mem %#x returned %#x", v, m.w.S[0])
	}
	if v, _ := m.Mem.ReadU32(bufAddr + 0x10); v != 0x104 || m.w.S[1] != 7 {
		t.Errorf("out of range performed: mem %#x s1 %#x", v, m.w.S[1])
	}
}

// Vega ISA §7.2.1 — S_SCRATCH: SGPR[base] + inst_offset + {M0 or SGPR[offset]} * 64.
func TestSMEMScratch(t *testing.T) {
	m := smemMachine(t, "s_scratch_load_dword s0, s[4:5], s6 offset:0x8", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m.SetSGPR(6, 2)
	run(t, m)
	if m.w.S[0] != 0x100+(0x8+128)/4 {
		t.Errorf("s0 = %#x", m.w.S[0])
	}
}

// GFX8 (gfx803) SMEM: unsigned 20-bit immediate offsets, M0 offsets for
// stores (GCN3 ISA, "Scalar Memory Operations"), no scalar atomics (llvm-mc-19).
func TestSMEMGFX8(t *testing.T) {
	p := asmProgram(t, isa.GFX8, "s_load_dwordx2 s[0:1], s[4:5], 0x10", "s_store_dword s0, s[4:5], m0",
		"s_dcache_wb", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m := NewMachine(p, nil, core.DefaultConfig(isa.GFX8))
	m.Mem.Map("buf", bufAddr, 0x100, false)
	m.Mem.WriteU64(bufAddr+0x10, 0x2222_2222_1111_1111)
	m.SetSGPR(4, bufAddr)
	m.SetScalar(core.CodeM0, 0x40)
	m.SetSGPR(0, 0x77)
	r := mustStep(t, m)
	if r.CountersAfter.LGKM != 2 {
		t.Errorf("LGKM %d", r.CountersAfter.LGKM)
	}
	r = mustStep(t, m) // the store reads s0 before the load returns: a hazard
	if len(r.Hazards) != 1 {
		t.Errorf("hazards %+v", r.Hazards)
	}
	run(t, m)
	if m.w.S[0] != 0x11111111 || m.w.S[1] != 0x22222222 {
		t.Errorf("loaded %#x %#x", m.w.S[0], m.w.S[1])
	}
	if v, _ := m.Mem.ReadU32(bufAddr + 0x40); v != 0x77 {
		t.Errorf("the store wrote %#x, want the old s0 0x77", v)
	}
}
