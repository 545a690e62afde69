package emu

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

var saluLoop = []string{
	"s_mov_b32 s0, 0",
	"s_add_u32 s1, s1, s0",
	"s_xor_b32 s2, s2, s1",
	"s_lshl_b32 s3, s2, 1",
	"s_and_b32 s4, s3, s1",
	"s_add_u32 s0, s0, 1",
	"s_cmp_lg_u32 s0, -1",
	"s_cbranch_scc1 -7",
	"s_endpgm",
}

var valuLoop = []string{
	"s_mov_b32 s0, 0",
	"v_add_f32_e32 v1, v1, v2",
	"v_mul_f32_e32 v3, v1, v2",
	"v_fma_f32 v4, v1, v2, v3",
	"v_add_u32_e32 v5, v5, v0",
	"v_and_b32_e32 v6, v5, v0",
	"v_lshlrev_b32_e32 v7, 2, v6",
	"v_cndmask_b32_e32 v8, v6, v7, vcc",
	"v_add_f32_e32 v9, v1, v9",
	"v_mul_lo_u32 v10, v5, v6",
	"s_add_u32 s0, s0, 1",
	"s_cmp_lg_u32 s0, -1",
	"s_cbranch_scc1 -12",
	"s_endpgm",
}

var smemLoop = []string{
	"s_mov_b32 s0, 0",
	"s_load_dwordx4 s[8:11], s[4:5], 0x0",
	"s_load_dword s12, s[4:5], 0x40",
	"s_waitcnt lgkmcnt(0)",
	"s_add_u32 s1, s8, s12",
	"s_add_u32 s0, s0, 1",
	"s_cmp_lg_u32 s0, -1",
	"s_cbranch_scc1 -7",
	"s_endpgm",
}

func benchMachine(b testing.TB, lines []string, hist bool) *Machine {
	cfg := core.DefaultConfig(isa.GFX9)
	if !hist {
		cfg.HistoryBytes = 0
	}
	m := NewMachine(asmProgram(b, isa.GFX9, lines...), nil, cfg)
	m.Mem.Map("buf", bufAddr, 0x1000, false)
	m.SetSGPR(4, bufAddr)
	for l := 0; l < 64; l++ {
		m.SetVGPR(0, l, uint32(l))
		m.SetVGPR(2, l, 0x3f800000)
	}
	return m
}

func benchRun(b *testing.B, lines []string, hist bool) {
	m := benchMachine(b, lines, hist)
	b.ReportAllocs()
	var r0, r1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	b.ResetTimer()
	res, err := m.Run(context.Background(), int64(b.N))
	if err != nil || res.Steps != int64(b.N) {
		b.Fatalf("%v %+v", err, res)
	}
	b.StopTimer()
	syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
	cpu := time.Duration(r1.Utime.Nano() + r1.Stime.Nano() - r0.Utime.Nano() - r0.Stime.Nano())
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Minstr/s")
	if cpu > 0 {
		// CPU time excludes waiting for a core on a shared machine
		b.ReportMetric(float64(b.N)/cpu.Seconds()/1e6, "Minstr/cpu-s")
	}
}

func BenchmarkSALULoop(b *testing.B)        { benchRun(b, saluLoop, false) }
func BenchmarkVALULoop(b *testing.B)        { benchRun(b, valuLoop, false) }
func BenchmarkSMEMLoop(b *testing.B)        { benchRun(b, smemLoop, false) }
func BenchmarkSALULoopHistory(b *testing.B) { benchRun(b, saluLoop, true) }
func BenchmarkVALULoopHistory(b *testing.B) { benchRun(b, valuLoop, true) }

// The step loop allocates nothing when history is off.
func TestRunNoAlloc(t *testing.T) {
	for name, lines := range map[string][]string{"salu": saluLoop, "valu": valuLoop, "smem": smemLoop} {
		m := benchMachine(t, lines, false)
		m.Run(context.Background(), 1000) // warm up
		if a := testing.AllocsPerRun(5, func() { m.Run(context.Background(), 10000) }); a != 0 {
			t.Errorf("%s: %v allocations per run", name, a)
		}
	}
}
