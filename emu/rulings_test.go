package emu

import (
	"encoding/hex"
	"fmt"
	"math"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// rulingWords are the encodings the cases run, as llvm-mc-19
// -triple=amdgcn -mcpu=gfx900 -show-encoding prints them (gfx803 gives the
// same words for the lines in rulingGFX8 too); TestRulingsEncodings checks
// them when llvm-mc-19 is installed.
var rulingWords = map[string]string{
	"global_load_dword v1, v[2:3], off":                   "008050dc02007f01",
	"global_store_dword v[2:3], v1, off":                  "008070dc02017f00",
	"global_atomic_add v1, v[2:3], v4, off glc":           "008009dd02047f01",
	"flat_load_dword v1, v[2:3]":                          "000050dc02000001",
	"ds_read_b32 v1, v2":                                  "00006cd802000001",
	"ds_write_b32 v2, v1":                                 "00001ad802010000",
	"buffer_load_dword v1, v2, s[4:7], 0 offen":           "001050e002010180",
	"buffer_load_format_xyzw v[4:7], v2, s[4:7], 0 offen": "00100ce002040180",
	"buffer_atomic_add v1, v2, s[4:7], 0 offen glc":       "005008e102010180",
	"s_waitcnt vmcnt(0) lgkmcnt(0)":                       "70008cbf",
	"s_endpgm":                                            "000081bf",
}

// rulingGFX8 are the lines llvm-mc-19 encodes identically for gfx803.
var rulingGFX8 = map[string]bool{
	"flat_load_dword v1, v[2:3]":                true,
	"ds_read_b32 v1, v2":                        true,
	"buffer_load_dword v1, v2, s[4:7], 0 offen": true,
	"s_waitcnt vmcnt(0) lgkmcnt(0)":             true,
	"s_endpgm":                                  true,
}

func TestRulingsEncodings(t *testing.T) {
	needLLVMMC(t)
	for line, want := range rulingWords {
		for _, mcpu := range []string{"gfx900", "gfx803"} {
			if mcpu == "gfx803" && !rulingGFX8[line] {
				continue
			}
			b, err := llvmAssemble(mcpu, line)
			if err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(b); got != want {
				t.Errorf("%s %q: llvm-mc-19 gives %s, the tests use %s", mcpu, line, got, want)
			}
		}
	}
}

// rulingBuf is the address of the cases' 4 KiB buffer (filled with 0xee
// past the bytes a case gives).
const rulingBuf = 0x1_0000_0000

// rulingCase is one instruction on one wave, then s_waitcnt and s_endpgm.
type rulingCase struct {
	name   string
	target isa.Target // GFX9 when zero
	line   string
	vsharp [4]uint32 // s[4:7]
	exec   uint64
	buf    []byte             // the buffer's first bytes
	lds    []byte             // LDS's first bytes (0 past them)
	v      map[int][64]uint32 // VGPRs before the instruction
	// check inspects the machine after the run.
	check func(t *testing.T, m *Machine)
}

// runRuling builds and runs c in mode (one of moreModes).
func runRuling(t *testing.T, c *rulingCase, mode string) *Machine {
	t.Helper()
	target, mcpu := isa.GFX9, "gfx900"
	if c.target == isa.GFX8 {
		target, mcpu = isa.GFX8, "gfx803"
	}
	var code []byte
	for _, l := range []string{c.line, "s_waitcnt vmcnt(0) lgkmcnt(0)", "s_endpgm"} {
		b, err := hex.DecodeString(rulingWords[l])
		if err != nil || len(b) == 0 {
			t.Fatalf("no words for %q", l)
		}
		code = append(code, b...)
	}
	p := DecodeProgramWith(target, isa.FeaturesOf(mcpu), 0, code)
	mem := core.NewMemory()
	if err := mem.Map("buf", rulingBuf, 0x1000, false); err != nil {
		t.Fatal(err)
	}
	if err := mem.Map("lds", core.SharedApertureBase, 1<<16, false); err != nil {
		t.Fatal(err)
	}
	fill := make([]byte, 0x1000)
	for i := range fill {
		fill[i] = 0xee
	}
	copy(fill, c.buf)
	if err := mem.Write(rulingBuf, fill); err != nil {
		t.Fatal(err)
	}
	if err := mem.Write(core.SharedApertureBase, c.lds); err != nil {
		t.Fatal(err)
	}
	cfg := core.DefaultConfig(target)
	cfg.HistoryBytes = 0
	if mode == "journaled" {
		cfg.HistoryBytes = 1 << 20
	}
	m := NewMachine(p, mem, cfg)
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1024), Cfg: VMemConfig{LDSLatency: 64}, Ops: map[*isa.Inst]*ref.VmOp{},
		NoFast: mode == "general"}
	for i, x := range c.vsharp {
		if err := m.SetSGPR(4+i, x); err != nil {
			t.Fatal(err)
		}
	}
	// GFX8 checks DS addresses against M0: give them the whole LDS.
	if err := m.SetScalar(int(isa.M0), ^uint32(0)); err != nil {
		t.Fatal(err)
	}
	m.SetExec(c.exec)
	for r, vals := range c.v {
		for l, x := range vals {
			m.SetVGPR(r, l, x)
		}
	}
	run(t, m)
	return m
}

// wantVGPR checks v[r] on lanes 0 to len(want)-1.
func wantVGPR(t *testing.T, m *Machine, r int, want ...uint32) {
	t.Helper()
	for l, x := range want {
		if got := m.w.V[r][l]; got != x {
			t.Errorf("lane %d: v%d = %#08x, want %#08x", l, r, got, x)
		}
	}
}

// wantMem checks the dwords at rulingBuf+off.
func wantMem(t *testing.T, m *Machine, off uint64, want ...uint32) {
	t.Helper()
	for i, x := range want {
		a := rulingBuf + off + 4*uint64(i)
		got, err := m.Mem.ReadU32(a)
		if err != nil {
			t.Fatal(err)
		}
		if got != x {
			t.Errorf("memory %#x = %#08x, want %#08x", a, got, x)
		}
	}
}

// rulingBytes are 0x00, 0x11, … 0xff: the dword at byte offset k reads
// k·0x11 upward.
var rulingBytes = func() []byte {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(0x11 * i)
	}
	return b
}()

// addrPairs returns v[2:3] holding rulingBuf+off(l) per lane.
func addrPairs(off func(l int) uint64) map[int][64]uint32 {
	return map[int][64]uint32{
		2: laneValues(func(l int) uint32 { return uint32(rulingBuf + off(l)) }),
		3: laneValues(func(l int) uint32 { return uint32((rulingBuf + off(l)) >> 32) }),
	}
}

// vsharpAt is a V# over rulingBuf: stride 0, numRecords bytes, the data
// and number format and DST_SEL X, Y, Z, W.
func vsharpAt(records uint32, dfmt, nfmt uint8, sel [4]uint8) [4]uint32 {
	w3 := uint32(nfmt)<<12 | uint32(dfmt)<<15
	for c, s := range sel {
		w3 |= uint32(s) << (3 * c)
	}
	base := uint64(rulingBuf)
	return [4]uint32{uint32(base), uint32(base >> 32), records, w3}
}

// TestRulingsUnalignedDword: a dword access at an address ≡ 2 (mod 4)
// moves the four bytes from that address, on GFX8 and GFX9, for global,
// flat, buffer and DS accesses: the low two bits are not dropped.
func TestRulingsUnalignedDword(t *testing.T) {
	at2 := func(l int) uint64 { return 2 + 4*uint64(l) } // lane l: byte 2+4l
	const lane0, lane1 = 0x55443322, 0x99887766          // rulingBytes from 2 and 6
	cases := []rulingCase{
		{name: "global load", line: "global_load_dword v1, v[2:3], off", exec: 0b11, buf: rulingBytes, v: addrPairs(at2),
			check: func(t *testing.T, m *Machine) { wantVGPR(t, m, 1, lane0, lane1) }},
		{name: "flat load gfx8", target: isa.GFX8, line: "flat_load_dword v1, v[2:3]", exec: 0b11, buf: rulingBytes, v: addrPairs(at2),
			check: func(t *testing.T, m *Machine) { wantVGPR(t, m, 1, lane0, lane1) }},
		{name: "global store", line: "global_store_dword v[2:3], v1, off", exec: 0b1, v: mergeV(addrPairs(at2), 1, func(int) uint32 { return 0x04030201 }),
			check: func(t *testing.T, m *Machine) { wantMem(t, m, 0, 0x0201eeee, 0xeeee0403) }},
		{name: "buffer load", line: "buffer_load_dword v1, v2, s[4:7], 0 offen", vsharp: vsharpAt(64, 0, 0, [4]uint8{4, 5, 6, 7}),
			exec: 0b11, buf: rulingBytes, v: map[int][64]uint32{2: laneValues(func(l int) uint32 { return uint32(at2(l)) })},
			check: func(t *testing.T, m *Machine) { wantVGPR(t, m, 1, lane0, lane1) }},
		{name: "buffer load gfx8", target: isa.GFX8, line: "buffer_load_dword v1, v2, s[4:7], 0 offen", vsharp: vsharpAt(64, 0, 0, [4]uint8{4, 5, 6, 7}),
			exec: 0b11, buf: rulingBytes, v: map[int][64]uint32{2: laneValues(func(l int) uint32 { return uint32(at2(l)) })},
			check: func(t *testing.T, m *Machine) { wantVGPR(t, m, 1, lane0, lane1) }},
		{name: "ds read", line: "ds_read_b32 v1, v2", exec: 0b11, lds: rulingBytes,
			v:     map[int][64]uint32{2: laneValues(func(l int) uint32 { return uint32(at2(l)) })},
			check: func(t *testing.T, m *Machine) { wantVGPR(t, m, 1, lane0, lane1) }},
		{name: "ds read gfx8", target: isa.GFX8, line: "ds_read_b32 v1, v2", exec: 0b11, lds: rulingBytes,
			v:     map[int][64]uint32{2: laneValues(func(l int) uint32 { return uint32(at2(l)) })},
			check: func(t *testing.T, m *Machine) { wantVGPR(t, m, 1, lane0, lane1) }},
	}
	runRulings(t, cases)
}

// mergeV returns v with register r set to f(lane).
func mergeV(v map[int][64]uint32, r int, f func(l int) uint32) map[int][64]uint32 {
	v[r] = laneValues(f)
	return v
}

// runRulings runs each case in every mode.
func runRulings(t *testing.T, cases []rulingCase) {
	for i := range cases {
		c := &cases[i]
		for _, mode := range moreModes {
			t.Run(fmt.Sprintf("%s/%s", c.name, mode), func(t *testing.T) {
				c.check(t, runRuling(t, c, mode))
			})
		}
	}
}

// TestRulingsFormatLoad: buffer_load_format_xyzw of a one-component
// format with DST_SEL X, Y, 1, W. A component the data format lacks
// reads 0 (Y) or 1 (W); DST_SEL 1 is the integer 1 for UINT and SINT and
// 1.0 otherwise; an out-of-range lane (lane 1, NUM_RECORDS 4) reads its
// element's bytes as 0 and still gets 1 where DST_SEL says 1 and for the
// missing W.
func TestRulingsFormatLoad(t *testing.T) {
	const (
		unorm, sint, uint_, float = 0, 5, 4, 7
		f16                       = 2
	)
	one := math.Float32bits(1)
	tests := []struct {
		name    string
		nfmt    uint8
		elem    uint16 // lane 0's element; lane 1's is out of range
		in, oor [4]uint32
	}{
		{"uint", uint_, 0x0007, [4]uint32{7, 0, 1, 1}, [4]uint32{0, 0, 1, 1}},
		{"sint", sint, 0xfffe, [4]uint32{0xfffffffe, 0, 1, 1}, [4]uint32{0, 0, 1, 1}},
		{"unorm", unorm, 0xffff, [4]uint32{one, 0, one, one}, [4]uint32{0, 0, one, one}},
		{"float", float, 0x3c00, [4]uint32{one, 0, one, one}, [4]uint32{0, 0, one, one}},
	}
	var cases []rulingCase
	for _, tc := range tests {
		buf := []byte{byte(tc.elem), byte(tc.elem >> 8), 0xee, 0xee, 0x05, 0x00, 0xee, 0xee}
		cases = append(cases, rulingCase{name: tc.name, line: "buffer_load_format_xyzw v[4:7], v2, s[4:7], 0 offen",
			vsharp: vsharpAt(4, f16, tc.nfmt, [4]uint8{4, 5, 1, 7}), exec: 0b11, buf: buf,
			v: map[int][64]uint32{2: laneValues(func(l int) uint32 { return 4 * uint32(l) })},
			check: func(t *testing.T, m *Machine) {
				for c := 0; c < 4; c++ {
					wantVGPR(t, m, 4+c, tc.in[c], tc.oor[c])
				}
			}})
	}
	runRulings(t, cases)
}

// TestRulingsAtomicOutOfRange: a buffer atomic with GLC returns 0 on a
// lane whose address is out of range, and memory is not changed there.
func TestRulingsAtomicOutOfRange(t *testing.T) {
	buf := []byte{10, 0, 0, 0, 20, 0, 0, 0, 30, 0, 0, 0}
	runRulings(t, []rulingCase{{name: "buffer_atomic_add glc", line: "buffer_atomic_add v1, v2, s[4:7], 0 offen glc",
		vsharp: vsharpAt(8, 0, 0, [4]uint8{4, 5, 6, 7}), exec: 0b111, buf: buf,
		v: map[int][64]uint32{
			1: laneValues(func(int) uint32 { return 5 }),
			2: laneValues(func(l int) uint32 { return 4 * uint32(l) }),
		},
		check: func(t *testing.T, m *Machine) {
			wantVGPR(t, m, 1, 10, 20, 0)
			wantMem(t, m, 0, 15, 25, 30)
		}}})
}

// TestRulingsLaneOrder: lanes that hit one address apply in ascending
// lane order: each lane of an atomic add with GLC gets the sum of the
// lanes below it, and of a store to one address the highest active lane's
// value stays.
func TestRulingsLaneOrder(t *testing.T) {
	one := func(int) uint64 { return 0 }
	const exec = 0x0000_00f0_0000_0101 // highest active lane: 39
	runRulings(t, []rulingCase{
		{name: "global_atomic_add glc", line: "global_atomic_add v1, v[2:3], v4, off glc", exec: ^uint64(0),
			buf: []byte{100, 0, 0, 0}, v: mergeV(addrPairs(one), 4, func(l int) uint32 { return uint32(l + 1) }),
			check: func(t *testing.T, m *Machine) {
				for l := 0; l < 64; l++ {
					if got, want := m.w.V[1][l], uint32(100+l*(l+1)/2); got != want {
						t.Errorf("lane %d: returned %d, want %d", l, got, want)
					}
				}
				wantMem(t, m, 0, 100+64*65/2)
			}},
		{name: "global_store_dword", line: "global_store_dword v[2:3], v1, off", exec: exec, v: mergeV(addrPairs(one), 1, func(l int) uint32 { return uint32(l) }),
			check: func(t *testing.T, m *Machine) { wantMem(t, m, 0, 39) }},
	})
}

// TestRulingsNormRounding: FORMAT stores convert UNORM, SNORM, USCALED
// and SSCALED by rounding to nearest, ties to even. A UNORM or SNORM tie
// only arises at ±0.5, which rounds away from zero (to the even value);
// the scaled formats show the even choice at 2.5 and 3.5.
func TestRulingsNormRounding(t *testing.T) {
	const (
		unorm, snorm, uscaled, sscaled = 0, 1, 2, 3
		f8, f16                        = 1, 2
	)
	below := math.Nextafter32(0.5, 0)
	tests := []struct {
		name       string
		dfmt, nfmt uint8
		x          float32
		want       uint16
	}{
		{"unorm8 0.5", f8, unorm, 0.5, 0x80},           // 127.5
		{"unorm8 below 0.5", f8, unorm, below, 0x7f},   // just under 127.5
		{"unorm16 0.5", f16, unorm, 0.5, 0x8000},       // 32767.5
		{"snorm8 0.5", f8, snorm, 0.5, 0x40},           // 63.5
		{"snorm8 -0.5", f8, snorm, -0.5, 0xc0},         // -63.5
		{"snorm16 -0.5", f16, snorm, -0.5, 0xc000},     // -16383.5
		{"uscaled8 2.5", f8, uscaled, 2.5, 2},          // tie to even
		{"uscaled8 3.5", f8, uscaled, 3.5, 4},          // tie to even
		{"sscaled8 -2.5", f8, sscaled, -2.5, 0xfe},     // -2
		{"sscaled16 -3.5", f16, sscaled, -3.5, 0xfffc}, // -4
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := make([]byte, 2)
			ref.FormatStore([4]uint32{math.Float32bits(tc.x)}, tc.dfmt, tc.nfmt, b[:ref.BufFormats[tc.dfmt].Bytes])
			got := uint16(b[0]) | uint16(b[1])<<8
			if tc.dfmt == f8 {
				got = uint16(b[0])
			}
			if got != tc.want {
				t.Errorf("%g stored as %#x, want %#x", tc.x, got, tc.want)
			}
		})
	}
}
