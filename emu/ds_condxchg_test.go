package emu

import (
	"context"
	"encoding/hex"
	"errors"
	"math/bits"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// condxchgWords are the encodings the tests below run, as llvm-mc-19
// -triple=amdgcn -mcpu=gfx900 (and gfx803, identical) -show-encoding prints
// them; TestCondXchgEncodings checks them against llvm-mc-19 when it is
// installed, so the tests themselves need no LLVM.
var condxchgWords = map[string]map[string]string{
	"gfx900": {
		"ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3]":              "0000fcd801020004",
		"ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3] offset:12":    "0c00fcd801020004",
		"ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3] offset:65535": "fffffcd801020004",
		"ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3] gds":          "0000fdd801020004",
		"s_waitcnt lgkmcnt(0)":                                  "7fc08cbf",
		"s_endpgm":                                              "000081bf",
	},
	"gfx803": {
		"ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3]":              "0000fcd801020004",
		"ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3] offset:12":    "0c00fcd801020004",
		"ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3] offset:65535": "fffffcd801020004",
		"ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3] gds":          "0000fdd801020004",
		"s_waitcnt lgkmcnt(0)":                                  "7f008cbf",
		"s_endpgm":                                              "000081bf",
	},
}

func TestCondXchgEncodings(t *testing.T) {
	needLLVMMC(t)
	for mcpu, m := range condxchgWords {
		for line, want := range m {
			b, err := llvmAssemble(mcpu, line)
			if err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(b); got != want {
				t.Errorf("%s %q: llvm-mc-19 gives %s, the test uses %s", mcpu, line, got, want)
			}
		}
	}
}

// condxchgMachine builds "LINE; s_waitcnt lgkmcnt(0); s_endpgm" for target
// with a 1 KiB LDS whose dword i holds i+1000, v4/v5 = 0xdead0000+lane and
// 0xbeef0000+lane, and M0 = m0.
func condxchgMachine(t *testing.T, target isa.Target, line string, m0 uint32, history int64) *Machine {
	t.Helper()
	mcpu := "gfx900"
	if target == isa.GFX8 {
		mcpu = "gfx803"
	}
	var code []byte
	for _, l := range []string{line, "s_waitcnt lgkmcnt(0)", "s_endpgm"} {
		h, ok := condxchgWords[mcpu][l]
		if !ok {
			t.Fatalf("no words for %s %q", mcpu, l)
		}
		b, _ := hex.DecodeString(h)
		code = append(code, b...)
	}
	p := DecodeProgramWith(target, isa.FeaturesOf(mcpu), 0, code)
	mem := core.NewMemory()
	if err := mem.Map("lds", core.SharedApertureBase, 1<<16, false); err != nil {
		t.Fatal(err)
	}
	for i := uint64(0); i < 256; i++ {
		if err := mem.WriteU32(core.SharedApertureBase+4*i, uint32(i+1000)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := core.DefaultConfig(target)
	cfg.HistoryBytes = history
	m := NewMachine(p, mem, cfg)
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1024), Cfg: VMemConfig{LDSLatency: 64}, Ops: map[*isa.Inst]*ref.VmOp{}}
	for l := 0; l < 64; l++ {
		m.SetVGPR(4, l, 0xdead0000+uint32(l))
		m.SetVGPR(5, l, 0xbeef0000+uint32(l))
	}
	if err := m.SetScalar(int(isa.M0), m0); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCondXchg32: per active lane, in ascending lane order, the two dwords
// at A0 = (addr + offset) & 0xfff8 and A0+4 are returned to v[4:5]; each is
// replaced by the matching data dword with bit 31 cleared iff that dword's
// bit 31 is set; out-of-range dwords return 0 and are not written. The LDS
// starts with dword i = i+1000 (byte address x: x/4+1000).
func TestCondXchg32(t *testing.T) {
	type lane struct {
		addr, lo, hi uint32 // v1, v2, v3
		ret          [2]uint32
	}
	const insn = "ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3]"
	tests := []struct {
		name   string
		target isa.Target
		line   string
		m0     uint32
		exec   uint64
		lanes  map[int]lane
		lds    map[uint32]uint32 // byte address → dword after the step
	}{
		{
			name: "holes", target: isa.GFX9, line: insn, m0: 0, exec: 0b11101011,
			lanes: map[int]lane{
				0: {0x40, 0x80000005, 0x00000007, [2]uint32{1016, 1017}},  // low written, high kept
				1: {0x53, 0x7fffffff, 0xffffffff, [2]uint32{1020, 1021}},  // 0x53 → 0x50; high written as 0x7fffffff
				2: {0x60, 0x80000001, 0x80000001, [2]uint32{}},            // inactive
				3: {0x3fc, 0x80000001, 0x80000002, [2]uint32{1254, 1255}}, // 0x3fc → 0x3f8, both written
				4: {0x68, 0x80000001, 0x80000001, [2]uint32{}},            // inactive
				5: {0x10070, 0x80000000, 0x1234, [2]uint32{1028, 1029}},   // wraps to 0x70; stores 0
				6: {0x400, 0x80000009, 0x80000009, [2]uint32{0, 0}},       // out of range: 0, nothing written
				7: {0x44, 0x80000006, 0x80000008, [2]uint32{5, 1017}},     // 0x44 → 0x40: after lane 0
			},
			lds: map[uint32]uint32{
				0x40: 6, 0x44: 8, 0x50: 1020, 0x54: 0x7fffffff, 0x60: 1024, 0x64: 1025, 0x68: 1026,
				0x6c: 1027, 0x3f8: 1, 0x3fc: 2, 0x70: 0, 0x74: 1029, 0x400: 0, 0x404: 0,
			},
		},
		{
			name: "offset", target: isa.GFX9, line: insn + " offset:12", exec: 0b11,
			lanes: map[int]lane{
				0: {0x40, 0x80000003, 0x80000004, [2]uint32{1018, 1019}}, // 0x4c → 0x48
				1: {0x1, 0x0, 0x0, [2]uint32{1002, 1003}},                // 0xd → 0x8, nothing written
			},
			lds: map[uint32]uint32{0x48: 3, 0x4c: 4, 0x8: 1002, 0xc: 1003},
		},
		{
			name: "offset wraps", target: isa.GFX9, line: insn + " offset:65535", exec: 1,
			lanes: map[int]lane{0: {0x1, 0xffffffff, 0x80000000, [2]uint32{1000, 1001}}}, // 0x10000 → 0
			lds:   map[uint32]uint32{0x0: 0x7fffffff, 0x4: 0},
		},
		{
			// GFX8 M0 range check: A0 = 0x3f8 is below M0, A1 = 0x3fc is not.
			name: "gfx8 m0", target: isa.GFX8, line: insn, m0: 0x3fc, exec: 0b101,
			lanes: map[int]lane{
				0: {0x3f8, 0x80000011, 0x80000012, [2]uint32{1254, 0}},
				2: {0x10, 0x80000013, 0x14, [2]uint32{1004, 1005}},
			},
			lds: map[uint32]uint32{0x3f8: 0x11, 0x3fc: 1255, 0x10: 0x13, 0x14: 1005},
		},
		{
			// GFX9 has no M0 range check.
			name: "gfx9 ignores m0", target: isa.GFX9, line: insn, m0: 0x3fc, exec: 1,
			lanes: map[int]lane{0: {0x3f8, 0x80000011, 0x80000012, [2]uint32{1254, 1255}}},
			lds:   map[uint32]uint32{0x3f8: 0x11, 0x3fc: 0x12},
		},
	}
	for _, tc := range tests {
		for _, mode := range []string{"step", "run"} {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				var hist int64
				if mode == "step" {
					hist = 1 << 20
				}
				m := condxchgMachine(t, tc.target, tc.line, tc.m0, hist)
				m.SetExec(tc.exec)
				for l, ln := range tc.lanes {
					m.SetVGPR(1, l, ln.addr)
					m.SetVGPR(2, l, ln.lo)
					m.SetVGPR(3, l, ln.hi)
				}
				if mode == "step" {
					r := mustStep(t, m)
					if r.CountersAfter.LGKM != 1 {
						t.Errorf("LGKM after the DS step = %d, want 1", r.CountersAfter.LGKM)
					}
					if want := 2 * bits.OnesCount64(tc.exec); len(r.Addrs) != want {
						t.Errorf("%d lane addresses recorded, want %d", len(r.Addrs), want)
					}
					for l := range tc.lanes {
						if got := m.w.V[4][l]; got != 0xdead0000+uint32(l) {
							t.Errorf("lane %d: v4 = %#x before s_waitcnt, want it unchanged", l, got)
						}
					}
					r = mustStep(t, m)
					if r.CountersAfter.LGKM != 0 {
						t.Errorf("LGKM after s_waitcnt = %d", r.CountersAfter.LGKM)
					}
				}
				run(t, m)
				for l := 0; l < 64; l++ {
					want := [2]uint32{0xdead0000 + uint32(l), 0xbeef0000 + uint32(l)}
					if tc.exec>>l&1 != 0 {
						want = tc.lanes[l].ret
					}
					if got := [2]uint32{m.w.V[4][l], m.w.V[5][l]}; got != want {
						t.Errorf("lane %d: v[4:5] = %#x, want %#x", l, got, want)
					}
				}
				for a, want := range tc.lds {
					got, err := m.Mem.ReadU32(core.SharedApertureBase + uint64(a))
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Errorf("LDS[%#x] = %#x, want %#x", a, got, want)
					}
				}
			})
		}
	}
}

// TestCondXchgGDS: with gds set it stops the wave like other GDS operations.
func TestCondXchgGDS(t *testing.T) {
	m := condxchgMachine(t, isa.GFX9, "ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3] gds", 0, 0)
	_, err := m.Run(context.Background(), 10)
	var ee *ExecError
	if !errors.As(err, &ee) || !strings.Contains(ee.Msg, "GDS") {
		t.Fatalf("gds: err = %v, want the GDS ExecError", err)
	}
}
