package emu

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// TestBufferStoreLDSDword: buffer_store_lds_dword stores, for each active
// lane, the LDS dword at M0[15:0] + 4×lane (0 beyond the work-group's LDS)
// to the lane's buffer address: base + SOFFSET + offset, plus stride×lane
// with ADD_TID_ENABLE, range-checked per lane (out of range: dropped). The
// LDS starts with dword i = 0x1000_0000 + i; the buffer is 0xee bytes. It
// counts on VM_CNT only.
func TestBufferStoreLDSDword(t *testing.T) {
	ldsDW := func(a uint32) uint32 { return 0x1000_0000 + a/4 }
	tests := []struct {
		name   string
		target isa.Target
		line   string
		vsharp [4]uint32
		soff   uint32
		m0     uint32
		exec   uint64
		want   map[uint32]uint32 // buffer offset → dword; other dwords stay 0xeeeeeeee
	}{
		{
			// Lanes 6 and 7 are past NUM_RECORDS 6; lane 2 is inactive; M0's high half is ignored.
			name: "add_tid", target: isa.GFX9, line: "buffer_store_lds_dword s[4:7], s8 lds",
			vsharp: vsharpWords(4, 6, 4, 4, 4, true), soff: 8, m0: 0xabcd_0100, exec: 0b1111_1011,
			want: map[uint32]uint32{8: ldsDW(0x100), 12: ldsDW(0x104), 20: ldsDW(0x10c), 24: ldsDW(0x110), 28: ldsDW(0x114)},
		},
		{
			// GFX8: M0 is the LDS offset, not the DS range limit.
			name: "add_tid gfx8", target: isa.GFX8, line: "buffer_store_lds_dword s[4:7], s8 lds",
			vsharp: vsharpWords(4, 6, 4, 4, 4, true), soff: 8, m0: 0x100, exec: 0b1111_1011,
			want: map[uint32]uint32{8: ldsDW(0x100), 12: ldsDW(0x104), 20: ldsDW(0x10c), 24: ldsDW(0x110), 28: ldsDW(0x114)},
		},
		{
			// offset 16 within stride 32; lane 2's LDS dword 0x400 is past the 1 KiB LDS: it stores 0.
			name: "offset, LDS end", target: isa.GFX9, line: "buffer_store_lds_dword s[4:7], s8 offset:16 lds",
			vsharp: vsharpWords(32, 16, 4, 4, 4, true), m0: 0x3f8, exec: 0b111,
			want: map[uint32]uint32{16: ldsDW(0x3f8), 48: ldsDW(0x3fc), 80: 0},
		},
		{
			// ADD_TID with offset ≥ stride: every lane out of range.
			name: "offset past stride", target: isa.GFX9, line: "buffer_store_lds_dword s[4:7], s8 offset:16 lds",
			vsharp: vsharpWords(16, 16, 4, 4, 4, true), m0: 0, exec: 0b111, want: map[uint32]uint32{},
		},
		{
			// No ADD_TID: one address for every lane; the raw range check is offset < NUM_RECORDS − SOFFSET.
			name: "raw, soffset", target: isa.GFX9, line: "buffer_store_lds_dword s[4:7], s8 lds",
			vsharp: vsharpWords(0, 20, 4, 4, 4, false), soff: 16, m0: 0x20, exec: 1 << 5,
			want: map[uint32]uint32{16: ldsDW(0x20 + 4*5)},
		},
		{
			name: "raw, out of range", target: isa.GFX8, line: "buffer_store_lds_dword s[4:7], s8 lds",
			vsharp: vsharpWords(0, 20, 4, 4, 4, false), soff: 20, m0: 0x20, exec: 1,
			want: map[uint32]uint32{},
		},
	}
	lds := map[uint32]uint32{}
	for a := uint32(0); a < 1024; a += 4 {
		lds[a] = ldsDW(a)
	}
	for _, tc := range tests {
		for _, mode := range moreModes {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				m := moreMachine(t, &moreSetup{target: tc.target, line: tc.line, mode: mode, ldsSize: 1024,
					vsharp: tc.vsharp, soff: tc.soff, m0: tc.m0, exec: tc.exec, lds: lds})
				if mode == "journaled" {
					r := mustStep(t, m)
					if c := r.CountersAfter; c.VM != 1 || c.LGKM != 0 {
						t.Errorf("counters after the store: VM %d, LGKM %d; want 1, 0", c.VM, c.LGKM)
					}
					// StepBack undoes the stores; the run below redoes them.
					if err := m.StepBack(); err != nil {
						t.Fatal(err)
					}
					for off := uint64(0); off < 128; off += 4 {
						if got, _ := m.Mem.ReadU32(moreBuf + off); got != 0xeeeeeeee {
							t.Fatalf("after StepBack buffer[%d] = %#x", off, got)
						}
					}
				}
				run(t, m)
				for off := uint32(0); off < 128; off += 4 {
					got, err := m.Mem.ReadU32(moreBuf + uint64(off))
					if err != nil {
						t.Fatal(err)
					}
					want, ok := tc.want[off]
					if !ok {
						want = 0xeeeeeeee
					}
					if got != want {
						t.Errorf("buffer[%d] = %#x, want %#x", off, got, want)
					}
				}
				for a := uint32(0); a < 1024; a += 4 {
					if got, _ := m.Mem.ReadU32(core.SharedApertureBase + uint64(a)); got != ldsDW(a) {
						t.Fatalf("LDS[%#x] = %#x changed", a, got)
					}
				}
			})
		}
	}
}

// TestDSWrap: ds_wrap_rtn_b32 per active lane, in ascending lane order:
// tmp = LDS[addr]; LDS[addr] = tmp >= data0 ? tmp − data0 : tmp + data1
// (unsigned compare, 32-bit wrap); v3 = tmp. Out of range it returns 0 and
// writes nothing. The LDS (1 KiB) starts with dword i = 1000 + i.
func TestDSWrap(t *testing.T) {
	type lane struct{ addr, d0, d1, ret uint32 }
	const insn = "ds_wrap_rtn_b32 v3, v1, v2, v4"
	tests := []struct {
		name   string
		target isa.Target
		line   string
		m0     uint32
		exec   uint64
		lanes  map[int]lane
		lds    map[uint32]uint32 // byte address → dword after the step; others unchanged
		banks  int               // bank-conflict cycles noted
	}{
		{
			name: "wrap", target: isa.GFX9, line: insn, exec: 0b111_0111,
			lanes: map[int]lane{
				0: {0x40, 1000, 7, 1016},                // 1016 ≥ 1000: 16
				1: {0x44, 1017, 7, 1017},                // equal: 0
				2: {0x48, 1019, 5, 1018},                // 1018 < 1019: 1023
				3: {0x4c, 0, 0, 0},                      // inactive
				4: {0x50, 0xffffffff, 0xfffffc18, 1020}, // unsigned: 1020 < 2^32−1; 1020 + (2^32−1000) wraps to 20
				5: {0x400, 0, 0, 0},                     // out of range
				6: {0x40, 20, 100, 16},                  // after lane 0: 16 < 20: 116
			},
			lds: map[uint32]uint32{0x40: 116, 0x44: 0, 0x48: 1023, 0x50: 20},
		},
		{
			name: "offset", target: isa.GFX9, line: insn + " offset:8", exec: 0b11,
			lanes: map[int]lane{0: {0x38, 5, 0, 1016}, 1: {0xf8, 2000, 3, 1064}}, // 0x40, 0x100
			lds:   map[uint32]uint32{0x40: 1011, 0x100: 1067},
		},
		{
			// GFX8's M0 range check: 0x40 is below M0 = 0x44, 0x44 is not.
			name: "gfx8 m0", target: isa.GFX8, line: insn, m0: 0x44, exec: 0b11,
			lanes: map[int]lane{0: {0x40, 16, 0, 1016}, 1: {0x44, 0, 0, 0}},
			lds:   map[uint32]uint32{0x40: 1000},
		},
		{
			// Four distinct dwords of bank 0 in one half-wave: 3 extra cycles.
			name: "bank conflicts", target: isa.GFX9, line: insn, exec: 0xf,
			lanes: map[int]lane{0: {0x0, 1, 0, 1000}, 1: {0x80, 1, 0, 1032}, 2: {0x100, 1, 0, 1064}, 3: {0x180, 1, 0, 1096}},
			lds:   map[uint32]uint32{0x0: 999, 0x80: 1031, 0x100: 1063, 0x180: 1095},
			banks: 3,
		},
	}
	init := map[uint32]uint32{}
	for a := uint32(0); a < 1024; a += 4 {
		init[a] = 1000 + a/4
	}
	for _, tc := range tests {
		for _, mode := range moreModes {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				var v1, v2, v4 [64]uint32
				v3 := laneValues(func(l int) uint32 { return 0xdead0000 + uint32(l) })
				for l, ln := range tc.lanes {
					v1[l], v2[l], v4[l] = ln.addr, ln.d0, ln.d1
				}
				m := moreMachine(t, &moreSetup{target: tc.target, line: tc.line, mode: mode, ldsSize: 1024,
					m0: tc.m0, exec: tc.exec, lds: init, v: map[int][64]uint32{1: v1, 2: v2, 3: v3, 4: v4}})
				if mode == "journaled" {
					r := mustStep(t, m)
					if c := r.CountersAfter; c.LGKM != 1 || c.VM != 0 {
						t.Errorf("counters after the DS step: LGKM %d, VM %d; want 1, 0", c.LGKM, c.VM)
					}
					if n := bits.OnesCount64(tc.exec); len(r.Addrs) != n {
						t.Errorf("%d lane addresses recorded, want %d", len(r.Addrs), n)
					}
					note := ""
					for _, s := range r.Notes {
						if strings.Contains(s, "bank conflicts") {
							note = s
						}
					}
					if want := fmt.Sprintf("LDS bank conflicts: %d extra cycles", tc.banks); tc.banks > 0 && note != want || tc.banks == 0 && note != "" {
						t.Errorf("bank-conflict note %q, want %d cycles", note, tc.banks)
					}
				}
				run(t, m)
				for l := 0; l < 64; l++ {
					want := v3[l]
					if tc.exec>>l&1 != 0 {
						want = tc.lanes[l].ret
					}
					if got := m.w.V[3][l]; got != want {
						t.Errorf("lane %d: v3 = %#x, want %#x", l, got, want)
					}
				}
				for a := uint32(0); a < 1024; a += 4 {
					want, ok := tc.lds[a]
					if !ok {
						want = init[a]
					}
					if got, _ := m.Mem.ReadU32(core.SharedApertureBase + uint64(a)); got != want {
						t.Errorf("LDS[%#x] = %d, want %d", a, got, want)
					}
				}
			})
		}
	}
}

// TestDSWrapGDS: with gds set it stops the wave like other GDS operations.
func TestDSWrapGDS(t *testing.T) {
	for _, tg := range []isa.Target{isa.GFX8, isa.GFX9} {
		m := moreMachine(t, &moreSetup{target: tg, line: "ds_wrap_rtn_b32 v3, v1, v2, v4 gds", mode: "general", ldsSize: 1024, exec: 1})
		_, err := m.Run(context.Background(), 10)
		var ee *ExecError
		if !errors.As(err, &ee) || ee.Msg != ref.ErrGDS.Error() {
			t.Errorf("%v: err = %v, want the GDS ExecError", tg, err)
		}
	}
}
