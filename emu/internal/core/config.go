package core

import (
	"github.com/wavedbg/wavedbg/isa"
)

// Latency is the cycle cost model. Every instruction advances the wave's
// clock by its issue cost; memory operations complete a fixed number of
// cycles after issue. The defaults (DefaultLatency) are illustrative figures
// of GCN's order of magnitude, not measurements of one chip.
type Latency struct {
	SALU      uint32 // scalar ALU issue cost (default 1)
	VALU      uint32 // wave64 vector ALU over a SIMD16: 4 passes (default 4)
	VALUTrans uint32 // transcendental and quarter-rate ops: rcp, rsq, sqrt, exp, log, sin, cos, 64-bit multiplies (default 16)
	VALUF64   uint32 // f64 add/mul/fma (default 16)
	Branch    uint32 // extra cycles for a taken branch (default 4)
	SMEMIssue uint32 // issue cost of an SMEM instruction (default 1)

	ScalarHit  uint32 // SMEM load completion after issue when every line hits (default 20)
	ScalarMiss uint32 // ... when any line misses or GLC forces a miss (default 200)
	ScalarOp   uint32 // s_dcache_* and s_atc_probe* (default 20)
	MemTime    uint32 // s_memtime / s_memrealtime (default 40)
	VectorMem  uint32 // vector memory operations (default 400)
	Export     uint32 // exports (default 100)

	RealTimeDiv uint32 // shader clocks per s_memrealtime tick (default 16)
}

// DefaultLatency returns the documented default latencies.
func DefaultLatency() Latency {
	return Latency{SALU: 1, VALU: 4, VALUTrans: 16, VALUF64: 16, Branch: 4, SMEMIssue: 1,
		ScalarHit: 20, ScalarMiss: 200, ScalarOp: 20, MemTime: 40, VectorMem: 400, Export: 100,
		RealTimeDiv: 16}
}

// CacheConfig sizes the scalar data cache. Lines are always 64 bytes.
type CacheConfig struct {
	Size int // bytes (default 16 KiB); must be a multiple of 64*Ways
	Ways int // associativity (default 4)
}

// Config configures a Machine.
type Config struct {
	Target  isa.Target
	Latency Latency
	Cache   CacheConfig
	// Mode is the initial MODE register (default 0x3c0: round to nearest
	// even, f32 denormals flushed, f64/f16 denormals kept, DX10_CLAMP and
	// IEEE set, as LLVM's kernel descriptor defaults).
	Mode uint32
	// HistoryBytes bounds the step history; the oldest steps are dropped
	// beyond it. 0 disables history (StepBack then fails); the default is
	// 256 MiB.
	HistoryBytes int64
	// VGPRs is the number of VGPRs shown in snapshots (default 256). The
	// register file always holds 256.
	VGPRs int
}

// DefaultConfig returns the defaults for target t.
func DefaultConfig(t isa.Target) Config {
	return Config{Target: t, Latency: DefaultLatency(), Cache: CacheConfig{Size: 16 << 10, Ways: 4},
		Mode: 0x3c0, HistoryBytes: 256 << 20, VGPRs: 256}
}
