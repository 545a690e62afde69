package emu

import (
	"context"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// smemWave is the scalar part of the offset kernel (gfx900, from wavedbg
// disasm of testdata/cl/gfx900/offset.co): four scalar loads from the
// dispatch packet and the kernel arguments, each wave starting with an
// empty scalar cache, so two miss and two hit.
var smemWave = []string{
	"020102c004000000", // s_load_dword s4, s[4:5], 0x4
	"7fc08cbf",         // s_waitcnt lgkmcnt(0)
	"04900a8f",         // s_lshr_b32 s10, s4, 16
	"03000ac010000000", // s_load_dwordx4 s[0:3], s[6:7], 0x10
	"7fc08cbf",         // s_waitcnt lgkmcnt(0)
	"04ff0186ffff0000", // s_and_b32 s1, s4, 0xffff
	"08010192",         // s_mul_i32 s1, s8, s1
	"030106c000000000", // s_load_dwordx2 s[4:5], s[6:7], 0x0
	"c30002c008000000", // s_load_dword s3, s[6:7], 0x8
	"090a0992",         // s_mul_i32 s9, s9, s10
	"00010181",         // s_add_i32 s1, s0, s1
	"02090181",         // s_add_i32 s1, s2, s9
	"e80301b0",         // s_movk_i32 s1, 0x3e8
	"0098008e",         // s_lshl_b32 s0, s0, 24
	"088c018e",         // s_lshl_b32 s1, s8, 12
	"00010688",         // s_xor_b32 s6, s0, s1
	"7fc08cbf",         // s_waitcnt lgkmcnt(0)
	"0290028e",         // s_lshl_b32 s2, s2, 16
	"06020088",         // s_xor_b32 s0, s6, s2
	"000081bf",         // s_endpgm
}

const (
	smemWavePacket  = 0x1_0000_0780
	smemWaveKernarg = 0x1_0000_0700
)

// smemWaveMachine returns a machine running smemWave with history off, its
// packet and kernel arguments mapped as a grid maps them.
func smemWaveMachine(t testing.TB) *Machine {
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.HistoryBytes = 0
	m := NewMachine(hexProgram(t, isa.GFX9, smemWave...), nil, cfg)
	if err := m.Mem.Map("kernarg", smemWaveKernarg, 0x80, false); err != nil {
		t.Fatal(err)
	}
	if err := m.Mem.Map("packet", smemWavePacket, 0x40, false); err != nil {
		t.Fatal(err)
	}
	m.Mem.WriteU32(smemWavePacket+4, 0x00040010)
	return m
}

// runSMEMWave resets m and runs one wave of smemWave.
func runSMEMWave(t testing.TB, m *Machine) {
	m.Reset()
	m.initWave(0, []uint32{0, 0, 0, 0, smemWavePacket & 0xffffffff, smemWavePacket >> 32, smemWaveKernarg & 0xffffffff, smemWaveKernarg >> 32, 7, 3}, nil, ^uint64(0), 0)
	if res, err := m.Run(context.Background(), 0); err != nil || res.Reason != StopEnded {
		t.Fatalf("%v %+v", err, res)
	}
}

// BenchmarkSMEMWave runs one wave of smemWave per op (Reset included): the
// per-wave scalar-memory cost of the memory-trivial kernels.
func BenchmarkSMEMWave(b *testing.B) {
	m := smemWaveMachine(b)
	b.ReportAllocs()
	for b.Loop() {
		runSMEMWave(b, m)
	}
}
