package tui

import (
	"errors"
	"fmt"
)

// fakeDebuggee is a scripted debuggee for layout and control tests that do
// not need the emulator: a straight-line program whose each step writes the
// step number into s(step%8) and v(step%4) of every active lane.
type fakeDebuggee struct {
	prog  []DisasmLine
	pc    int
	steps int
	wave  int
	sgpr  [16]uint32
	vgpr  [8][64]uint32
	mem   map[uint64]byte
	hist  []fakeState
	loop  bool // never end: wrap from the last instruction to the first
}

type fakeState struct {
	pc   int
	sgpr [16]uint32
	vgpr [8][64]uint32
}

func newFake() *fakeDebuggee {
	f := &fakeDebuggee{mem: map[uint64]byte{}}
	texts := []string{
		"s_load_dwordx2 s[4:5], s[0:1], 0x0", "s_load_dword s6, s[0:1], 0x8", "v_lshlrev_b32_e32 v1, 2, v0",
		"s_waitcnt lgkmcnt(0)", "v_mov_b32_e32 v2, s5", "v_add_co_u32_e32 v1, vcc, s4, v1",
		"global_load_dword v3, v[1:2], off", "s_cbranch_scc1 65532", "s_endpgm",
	}
	for i, t := range texts {
		l := DisasmLine{Addr: 0x1500 + uint64(4*i), Text: t, Enc: fmt.Sprintf("%08X", 0xbf800000+i)}
		if i == 0 {
			l.Label = "fake"
		}
		if i == 4 {
			l.Label = ".Lloop"
		}
		if i == 7 {
			l.Target = ".Lloop"
		}
		f.prog = append(f.prog, l)
	}
	for a := uint64(0x10000); a < 0x10100; a++ {
		f.mem[a] = byte(a)
	}
	return f
}

func (f *fakeDebuggee) Name() string          { return "fake" }
func (f *fakeDebuggee) Program() []DisasmLine { return f.prog }
func (f *fakeDebuggee) Labels() map[string]uint64 {
	return map[string]uint64{"fake": 0x1500, ".Lloop": 0x1510}
}
func (f *fakeDebuggee) Waves() []WaveRow {
	return []WaveRow{{ID: 0, PC: f.prog[min(f.pc, len(f.prog)-1)].Addr, State: "running"}, {ID: 1, Wave: 1, PC: 0x1500, State: "ready"}}
}
func (f *fakeDebuggee) WaveCount() int         { return 2 }
func (f *fakeDebuggee) SelectWave(i int) error { f.wave = i; return nil }
func (f *fakeDebuggee) Selected() int          { return f.wave }
func (f *fakeDebuggee) PC() (uint64, bool) {
	if f.pc >= len(f.prog) {
		return 0, false
	}
	return f.prog[f.pc].Addr, true
}
func (f *fakeDebuggee) Step() error {
	if f.pc >= len(f.prog) {
		return errors.New("ended")
	}
	f.hist = append(f.hist, fakeState{f.pc, f.sgpr, f.vgpr})
	f.steps++
	f.sgpr[f.steps%8] = uint32(f.steps)
	for l := 0; l < 32; l++ {
		f.vgpr[f.steps%4][l] = uint32(f.steps*100 + l)
	}
	f.pc++
	if f.loop && f.pc == len(f.prog) {
		f.pc = 0
	}
	return nil
}
func (f *fakeDebuggee) StepBack() (bool, error) {
	if len(f.hist) == 0 {
		return false, nil
	}
	s := f.hist[len(f.hist)-1]
	f.hist = f.hist[:len(f.hist)-1]
	f.pc, f.sgpr, f.vgpr = s.pc, s.sgpr, s.vgpr
	f.steps--
	return true, nil
}
func (f *fakeDebuggee) StepCount() int { return f.steps }
func (f *fakeDebuggee) Fill(fr *Frame) {
	for i, v := range f.sgpr {
		fr.SGPR.Regs = append(fr.SGPR.Regs, RegCell{Name: fmt.Sprintf("s%d", i), Value: v, Changed: f.steps > 0 && i == f.steps%8})
	}
	fr.SGPR.Regs = append(fr.SGPR.Regs, RegCell{Name: "vcc_lo"}, RegCell{Name: "exec_lo", Value: 0xffffffff}, RegCell{Name: "m0", Value: 0xffffffff})
	fr.SGPR.Exec = 0xffffffff
	fr.VGPR.Exec = 0xffffffff
	for r := range f.vgpr {
		fr.VGPR.Values = append(fr.VGPR.Values, f.vgpr[r][:])
		var ch uint64
		if f.steps > 0 && r == f.steps%4 {
			ch = 0xffffffff
		}
		fr.VGPR.Changed = append(fr.VGPR.Changed, ch)
		fr.VGPR.Pending = append(fr.VGPR.Pending, r == 3)
	}
	fr.Counters = CountersView{Cycle: uint64(f.steps * 4), LGKM: 1, Ops: []InFlight{{Inst: "s_load_dword s6, s[0:1], 0x8", Counter: "lgkm", Dests: "s6", Done: 220, Blocks: true}},
		Wait: "s_waitcnt lgkmcnt(0)", Stalled: true, StallUntil: 220}
	fr.Cache = CacheView{LineSize: 64, Lines: []CacheLine{{Index: 0, Tag: 0x10000, Valid: true, Age: 0, Event: "miss"}}, Misses: 1}
	fr.Addr = AddrView{Inst: "s_load_dword s6, s[0:1], 0x8", Kind: "SMEM", Fields: []Field{{"sbase", "s[0:1] = 0x10000"}, {"offset", "0x8"}},
		Steps: []string{"addr = sbase + offset = 0x10000 + 0x8 = 0x10008"}, Lines: []uint64{0x10000}}
	fr.Explain = "step " + fmt.Sprint(f.steps) + ": " + f.prog[min(f.pc, len(f.prog)-1)].Text
}
func (f *fakeDebuggee) Reg(r RegRef) (uint32, error) {
	switch r.File {
	case 's':
		if r.Num < 16 {
			return f.sgpr[r.Num], nil
		}
	case 'v':
		if r.Num < 8 {
			return f.vgpr[r.Num][max(r.Lane, 0)], nil
		}
	}
	return 0, fmt.Errorf("no register %s", r)
}
func (f *fakeDebuggee) SetReg(r RegRef, v uint32) error {
	switch r.File {
	case 's':
		f.sgpr[r.Num] = v
	case 'v':
		f.vgpr[r.Num][r.Lane] = v
	}
	return nil
}
func (f *fakeDebuggee) ReadMem(addr uint64, n int, lds bool) ([]byte, []bool) {
	b, v := make([]byte, n), make([]bool, n)
	for i := range b {
		b[i], v[i] = f.mem[addr+uint64(i)], true
	}
	return b, v
}
func (f *fakeDebuggee) WriteMem(addr uint64, b []byte, lds bool) error {
	for i, c := range b {
		f.mem[addr+uint64(i)] = c
	}
	return nil
}
func (f *fakeDebuggee) Buffers() []Buffer            { return []Buffer{{Name: "buf", Addr: 0x10000, Size: 256}} }
func (f *fakeDebuggee) SetLatency(string, int) error { return nil }
func (f *fakeDebuggee) Latencies() []string          { return []string{"smem=200"} }
