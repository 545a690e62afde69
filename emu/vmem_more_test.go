package emu

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// moreWords are the encodings the tests run, as llvm-mc-19 -triple=amdgcn
// -show-encoding prints them for gfx900 and, for the lines not in
// moreGFX9Only, identically for gfx803; TestMoreEncodings checks them when
// llvm-mc-19 is installed, so the tests themselves need no LLVM.
var moreWords = map[string]string{
	"buffer_load_format_d16_hi_x v1, v2, s[4:7], 0 offen":  "001098e002010180",
	"buffer_load_format_d16_x v1, v2, s[4:7], 0 offen":     "001020e002010180",
	"buffer_store_format_d16_hi_x v1, v2, s[4:7], 0 offen": "00109ce002010180",
	"buffer_store_format_d16_x v1, v2, s[4:7], 0 offen":    "001030e002010180",
	"buffer_store_lds_dword s[4:7], s8 lds":                "0000f5e000000108",
	"buffer_store_lds_dword s[4:7], s8 offset:16 lds":      "1000f5e000000108",
	"ds_wrap_rtn_b32 v3, v1, v2, v4":                       "000068d801020403",
	"ds_wrap_rtn_b32 v3, v1, v2, v4 offset:8":              "080068d801020403",
	"ds_wrap_rtn_b32 v3, v1, v2, v4 gds":                   "000069d801020403",
	"s_waitcnt vmcnt(0) lgkmcnt(0)":                        "70008cbf",
	"s_endpgm":                                             "000081bf",
}

var moreGFX9Only = map[string]bool{
	"buffer_load_format_d16_hi_x v1, v2, s[4:7], 0 offen":  true,
	"buffer_load_format_d16_x v1, v2, s[4:7], 0 offen":     true,
	"buffer_store_format_d16_hi_x v1, v2, s[4:7], 0 offen": true,
	"buffer_store_format_d16_x v1, v2, s[4:7], 0 offen":    true,
}

func TestMoreEncodings(t *testing.T) {
	needLLVMMC(t)
	for line, want := range moreWords {
		for _, mcpu := range []string{"gfx900", "gfx803"} {
			if mcpu == "gfx803" && moreGFX9Only[line] {
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

// moreBuf is the address of the tests' 4 KiB buffer.
const moreBuf = 0x1_0000_0000

// The three ways each case runs.
var moreModes = []string{"journaled", "fast", "general"}

// moreSetup is a case's machine before its instruction.
type moreSetup struct {
	target  isa.Target
	line    string
	tfe     bool   // set the MUBUF tfe bit (llvm-mc-19 rejects tfe with d16 format loads)
	mode    string // one of moreModes
	ldsSize uint32
	vsharp  [4]uint32 // s[4:7]
	soff    uint32    // s8
	m0      uint32
	exec    uint64
	buf     []byte            // the buffer's first bytes
	lds     map[uint32]uint32 // LDS dwords by byte address
	v       map[int][64]uint32
}

// moreMachine builds "LINE; s_waitcnt vmcnt(0) lgkmcnt(0); s_endpgm" with
// the buffer at moreBuf (the rest of it 0xee bytes) and the LDS window
// mapped.
func moreMachine(t *testing.T, s *moreSetup) *Machine {
	t.Helper()
	var code []byte
	for _, l := range []string{s.line, "s_waitcnt vmcnt(0) lgkmcnt(0)", "s_endpgm"} {
		b, err := hex.DecodeString(moreWords[l])
		if err != nil || len(b) == 0 {
			t.Fatalf("no words for %q", l)
		}
		code = append(code, b...)
	}
	if s.tfe {
		code[6] |= 0x80 // MUBUF bit 55
	}
	mcpu := "gfx900"
	if s.target == isa.GFX8 {
		mcpu = "gfx803"
	}
	p := DecodeProgramWith(s.target, isa.FeaturesOf(mcpu), 0, code)
	if s.tfe && !p.Insts[0].Mods.TFE {
		t.Fatal("the tfe bit did not decode")
	}
	mem := core.NewMemory()
	if err := mem.Map("buf", moreBuf, 0x1000, false); err != nil {
		t.Fatal(err)
	}
	if err := mem.Map("lds", core.SharedApertureBase, 1<<16, false); err != nil {
		t.Fatal(err)
	}
	fill := make([]byte, 0x1000)
	for i := range fill {
		fill[i] = 0xee
	}
	copy(fill, s.buf)
	if err := mem.Write(moreBuf, fill); err != nil {
		t.Fatal(err)
	}
	for a, x := range s.lds {
		if err := mem.WriteU32(core.SharedApertureBase+uint64(a), x); err != nil {
			t.Fatal(err)
		}
	}
	cfg := core.DefaultConfig(s.target)
	cfg.HistoryBytes = 0
	if s.mode == "journaled" {
		cfg.HistoryBytes = 1 << 20
	}
	m := NewMachine(p, mem, cfg)
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(s.ldsSize), Cfg: VMemConfig{LDSLatency: 64}, Ops: map[*isa.Inst]*ref.VmOp{},
		NoFast: s.mode == "general"}
	for i, x := range s.vsharp {
		if err := m.SetSGPR(4+i, x); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.SetSGPR(8, s.soff); err != nil {
		t.Fatal(err)
	}
	if err := m.SetScalar(int(isa.M0), s.m0); err != nil {
		t.Fatal(err)
	}
	m.SetExec(s.exec)
	for r, vals := range s.v {
		for l, x := range vals {
			m.SetVGPR(r, l, x)
		}
	}
	return m
}

// vsharpWords builds a V# at moreBuf: stride, NUM_RECORDS, data and number
// format, DST_SEL_X (4: X, 5: Y, 1: one; Y, Z, W select themselves) and
// ADD_TID_ENABLE.
func vsharpWords(stride, records uint32, dfmt, nfmt, selX uint8, addTID bool) [4]uint32 {
	w3 := uint32(selX) | 5<<3 | 6<<6 | 7<<9 | uint32(nfmt)<<12 | uint32(dfmt)<<15
	if addTID {
		w3 |= 1 << 23
	}
	return [4]uint32{uint32(moreBuf & 0xffffffff), uint32(moreBuf>>32) | stride<<16, records, w3}
}

// laneValues returns a VGPR's 64 values f(lane).
func laneValues(f func(l int) uint32) [64]uint32 {
	var v [64]uint32
	for l := range v {
		v[l] = f(l)
	}
	return v
}

// TestBufferFormatD16: buffer_load_format_d16{,_hi}_x convert one
// component by the V#'s formats as a 16-bit value (a half for the
// float-producing number formats, the low 16 bits of the integer
// otherwise) and write it to the low or high half of v1, keeping the other
// half. Lanes 0–2 read the element at 8×lane, lane 3 is out of range
// (NUM_RECORDS 24: reads 0), lane 4 is inactive.
func TestBufferFormatD16(t *testing.T) {
	const (
		unorm, snorm, uscaled, uint_, sint, float = 0, 1, 2, 4, 5, 7
		f8, f16, f32, f8888                       = 1, 2, 4, 10
	)
	tests := []struct {
		name       string
		dfmt, nfmt uint8
		selX       uint8
		elems      [3][]byte
		want       [3]uint16
	}{
		// 128/255 = 0.50196 is 0x3804 as a half (ulp 2^-11 at 0.5), 64/255 0x3404.
		{"unorm8", f8, unorm, 4, [3][]byte{{0x80}, {0xff}, {0x40}}, [3]uint16{0x3804, 0x3c00, 0x3404}},
		// -127/127 and -128/127 (clamped) are -1.
		{"snorm8", f8, snorm, 4, [3][]byte{{0x81}, {0x80}, {0x7f}}, [3]uint16{0xbc00, 0xbc00, 0x3c00}},
		{"uscaled8", f8, uscaled, 4, [3][]byte{{200}, {0}, {1}}, [3]uint16{0x5a40, 0, 0x3c00}},
		// -5, the smallest denormal and +inf come back unchanged.
		{"float16", f16, float, 4, [3][]byte{{0x00, 0xc5}, {0x01, 0x00}, {0x00, 0x7c}}, [3]uint16{0xc500, 0x0001, 0x7c00}},
		{"sint8", f8, sint, 4, [3][]byte{{0xfe}, {0x7f}, {0x80}}, [3]uint16{0xfffe, 0x007f, 0xff80}},
		{"uint16", f16, uint_, 4, [3][]byte{{0xef, 0xbe}, {0x01, 0x00}, {0xff, 0xff}}, [3]uint16{0xbeef, 1, 0xffff}},
		{"uint32 low bits", f32, uint_, 4, [3][]byte{{0x78, 0x56, 0x34, 0x12}, {0xff, 0xff, 0x01, 0x00}, {0, 0, 0, 0}}, [3]uint16{0x5678, 0xffff, 0}},
		// DST_SEL_X = Y: X takes the element's second byte.
		{"unorm 8_8_8_8 sel Y", f8888, unorm, 5, [3][]byte{{0x00, 0xff, 0, 0}, {0xff, 0x00, 0xff, 0xff}, {0, 0x80, 0, 0}}, [3]uint16{0x3c00, 0, 0x3804}},
	}
	old := laneValues(func(l int) uint32 { return 0x89ab_cd00 + uint32(l) })
	offs := laneValues(func(l int) uint32 { return uint32(8 * l) })
	for _, hi := range []bool{false, true} {
		line := "buffer_load_format_d16_x v1, v2, s[4:7], 0 offen"
		if hi {
			line = "buffer_load_format_d16_hi_x v1, v2, s[4:7], 0 offen"
		}
		for _, tc := range tests {
			for _, tfe := range []bool{false, true} {
				for _, mode := range moreModes {
					t.Run(fmt.Sprintf("%s/%s/tfe=%v/%s", strings.Fields(line)[0], tc.name, tfe, mode), func(t *testing.T) {
						buf := make([]byte, 64)
						for l, e := range tc.elems {
							copy(buf[8*l:], e)
						}
						m := moreMachine(t, &moreSetup{target: isa.GFX9, line: line, tfe: tfe, mode: mode, ldsSize: 1024,
							vsharp: vsharpWords(0, 24, tc.dfmt, tc.nfmt, tc.selX, false), exec: 0b01111, buf: buf,
							v: map[int][64]uint32{1: old, 2: offs}})
						run(t, m)
						for l := 0; l < 6; l++ {
							want := old[l] // inactive
							if l < 4 {
								h := uint32(0) // lane 3: out of range
								if l < 3 {
									h = uint32(tc.want[l])
								}
								want = old[l]&0xffff0000 | h
								if hi {
									want = old[l]&0xffff | h<<16
								}
							}
							if got := m.w.V[1][l]; got != want {
								t.Errorf("lane %d: v1 = %#08x, want %#08x", l, got, want)
							}
							// tfe's status dword (0: no fault) goes, like the datum,
							// into one half of v2, the other half kept.
							want2 := offs[l]
							switch {
							case tfe && l < 4 && hi:
								want2 &= 0xffff
							case tfe && l < 4:
								want2 &= 0xffff0000
							}
							if got := m.w.V[2][l]; got != want2 {
								t.Errorf("lane %d: v2 = %#08x, want %#08x", l, got, want2)
							}
						}
					})
				}
			}
		}
	}
}

// TestBufferStoreFormatD16: buffer_store_format_d16{,_hi}_x store the low
// or high half of v1 (the other half ignored) as one 16-bit component
// converted by the V#'s formats: a half for the float-producing number
// formats, a 16-bit integer (zero-extended) otherwise. Lanes 0–2 write the
// element at 8×lane; lane 3 is out of range (dropped) and lane 4 inactive;
// every other byte keeps its 0xee.
func TestBufferStoreFormatD16(t *testing.T) {
	tests := []struct {
		name       string
		dfmt, nfmt uint8
		in         [3]uint16
		want       [3][]byte
	}{
		// 0.5×255 = 127.5 rounds to even, 0.25×255 = 63.75 to 64; -1 clamps to 0.
		{"unorm8", 1, 0, [3]uint16{0x3800, 0x3400, 0xbc00}, [3][]byte{{0x80}, {0x40}, {0x00}}},
		// 1 → 127, -1 → -127 = 0x81, 0.5×127 = 63.5 rounds to even.
		{"snorm8", 1, 1, [3]uint16{0x3c00, 0xbc00, 0x3800}, [3][]byte{{0x7f}, {0x81}, {0x40}}},
		{"float16", 2, 7, [3]uint16{0xc500, 0x0001, 0x7c00}, [3][]byte{{0x00, 0xc5}, {0x01, 0x00}, {0x00, 0x7c}}},
		// The element takes the integer's low bits.
		{"sint8", 1, 5, [3]uint16{0xfffe, 0x0080, 0x1234}, [3][]byte{{0xfe}, {0x80}, {0x34}}},
		{"uint32", 4, 4, [3]uint16{0xbeef, 0xffff, 0}, [3][]byte{{0xef, 0xbe, 0, 0}, {0xff, 0xff, 0, 0}, {0, 0, 0, 0}}},
		{"uint16", 2, 4, [3]uint16{0xbeef, 1, 0x8000}, [3][]byte{{0xef, 0xbe}, {0x01, 0x00}, {0x00, 0x80}}},
	}
	for _, hi := range []bool{false, true} {
		line := "buffer_store_format_d16_x v1, v2, s[4:7], 0 offen"
		if hi {
			line = "buffer_store_format_d16_hi_x v1, v2, s[4:7], 0 offen"
		}
		for _, tc := range tests {
			for _, mode := range moreModes {
				t.Run(fmt.Sprintf("%s/%s/%s", strings.Fields(line)[0], tc.name, mode), func(t *testing.T) {
					v1 := laneValues(func(l int) uint32 {
						h := uint32(0x4242) // lanes 3 and 4
						if l < 3 {
							h = uint32(tc.in[l])
						}
						if hi {
							return h<<16 | 0xdead // the low half must not matter
						}
						return 0xdead<<16 | h
					})
					m := moreMachine(t, &moreSetup{target: isa.GFX9, line: line, mode: mode, ldsSize: 1024,
						vsharp: vsharpWords(0, 24, tc.dfmt, tc.nfmt, 4, false), exec: 0b01111,
						v: map[int][64]uint32{1: v1, 2: laneValues(func(l int) uint32 { return uint32(8 * l) })}})
					run(t, m)
					want := make([]byte, 64)
					for i := range want {
						want[i] = 0xee
					}
					for l, e := range tc.want {
						copy(want[8*l:], e)
					}
					got := make([]byte, 64)
					if err := m.Mem.Read(moreBuf, got); err != nil {
						t.Fatal(err)
					}
					if string(got) != string(want) {
						t.Errorf("buffer\n% x, want\n% x", got, want)
					}
				})
			}
		}
	}
}

// TestVMemEveryOpModelled: every DS, MUBUF, MTBUF and FLAT opcode of GFX8
// and GFX9 in the isa tables compiles; none stops the wave as "not
// modelled".
func TestVMemEveryOpModelled(t *testing.T) {
	n := 0
	for _, tg := range []isa.Target{isa.GFX8, isa.GFX9} {
		for _, enc := range []isa.Encoding{isa.EncDS, isa.EncMUBUF, isa.EncMTBUF, isa.EncFLAT} {
			for opcode := 0; opcode < 1<<9; opcode++ {
				f := isa.LookupForm(tg, enc, uint16(opcode))
				if f == nil {
					continue
				}
				n++
				in := formInst(tg, f, false)
				if _, ok := ref.CompileVM(&in); !ok {
					t.Errorf("%v %s is not modelled", tg, f.Mnemonic)
				}
			}
		}
	}
	if n < 400 {
		t.Fatalf("only %d opcodes", n)
	}
}
