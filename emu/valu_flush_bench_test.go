package emu

import (
	"context"
	"math"
	"syscall"
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// flushLoop is an n-body inner loop (f32 subtracts of an SGPR, multiplies,
// v_mac_f32 accumulations, v_mad_f32, v_rcp_f32, v_rndne_f32) as code
// built to flush f32 denormals runs it.
func flushLoop() []ti {
	e3 := func(t ti) ti { return t.enc(isa.EncVOP3) }
	const top = 4 // the address of the loop's first instruction
	return []ti{
		I("s_mov_b32", sreg(0), ic(0)),
		I("v_sub_f32", vreg(10), sreg(16), vreg(0)),
		I("v_sub_f32", vreg(11), sreg(17), vreg(1)),
		I("v_sub_f32", vreg(12), sreg(18), vreg(2)),
		I("v_mul_f32", vreg(13), vreg(11), vreg(11)),
		I("v_mac_f32", vreg(13), vreg(10), vreg(10)),
		I("v_mac_f32", vreg(13), vreg(12), vreg(12)),
		I("v_add_f32", vreg(13), sreg(5), vreg(13)),
		I("v_rcp_f32", vreg(13), vreg(13)),
		I("v_mul_f32", vreg(14), vreg(13), vreg(13)),
		I("v_mac_f32", vreg(6), vreg(10), vreg(14)),
		I("v_mac_f32", vreg(7), vreg(11), vreg(14)),
		I("v_mac_f32", vreg(8), vreg(12), vreg(14)),
		e3(I("v_mad_f32", vreg(15), vreg(6), vreg(7), vreg(8))),
		I("v_rndne_f32", vreg(16), vreg(15)),
		I("s_add_u32", sreg(0), sreg(0), ic(1)),
		I("s_cmp_lg_u32", sreg(0), ic(-1)),
		I("s_cbranch_scc1", label(top)),
		I("s_endpgm"),
	}
}

// benchFlushLoop runs flushLoop under MODE mode (FP_DENORM in bits 7:4).
func benchFlushLoop(b *testing.B, mode uint32) {
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.HistoryBytes = 0
	cfg.Mode = mode
	m := NewMachine(prog(isa.GFX9, flushLoop()...), nil, cfg)
	f := func(x float64) uint32 { return math.Float32bits(float32(x)) }
	for l := 0; l < 64; l++ {
		for k := range 3 {
			m.SetVGPR(k, l, f(1+float64((l*7+k*13)%64)/64))
		}
	}
	m.SetSGPR(5, f(0.01))
	for k := range 3 {
		m.SetSGPR(16+k, f(1.5-float64(k)/8))
	}
	benchMachineRun(b, m)
}

// BenchmarkVALULoopFlush is flushLoop with f32 denormals flushed in and
// out (LLVM's default MODE 0x3c0: FLOAT_DENORM_MODE_32 = 0).
func BenchmarkVALULoopFlush(b *testing.B) { benchFlushLoop(b, 0x3c0) }

// BenchmarkVALULoopKeep is flushLoop with f32 denormals kept (0x3f0), for
// comparison.
func BenchmarkVALULoopKeep(b *testing.B) { benchFlushLoop(b, 0x3f0) }

// benchMachineRun runs m for b.N instructions and reports the rates as
// benchRun does.
func benchMachineRun(b *testing.B, m *Machine) {
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
		b.ReportMetric(float64(b.N)/cpu.Seconds()/1e6, "Minstr/cpu-s")
	}
}
