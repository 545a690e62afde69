package emu

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// TestScratchVSharp: the private segment buffer V# decodes to ROCr's
// fields, and its swizzle interleaves dwords across the 64 lanes.
func TestScratchVSharp(t *testing.T) {
	d := &Dispatch{ScratchAddr: 0x1_2345_6700, ScratchBytes: 1 << 20}
	r := d.scratchRsrc()
	for _, tgt := range []isa.Target{isa.GFX8, isa.GFX9} {
		v := ref.DecodeVSharp(r, tgt)
		want := VSharp{Base: 0x1_2345_6700, Swizzle: true, NumRecords: 1 << 20, DstSel: [4]uint8{4, 5, 6, 7},
			NumFormat: ref.NfUINT, DataFormat: 4, ElemSize: 4, IndexStride: 64, AddTID: true}
		if v != want {
			t.Errorf("%v: V# %+v, want %+v", tgt, v, want)
		}
	}
	v := ref.DecodeDesc(r, isa.GFX9)
	for _, c := range []struct{ lane, off, want uint32 }{
		{0, 0, 0}, {1, 0, 4}, {63, 0, 252}, {0, 4, 256}, {5, 6, 256 + 20 + 2}, {2, 1024, 256*256 + 8},
	} {
		if got := v.BufOffset(c.lane, c.off); got != c.want {
			t.Errorf("lane %d offset %d: BUFOFFSET %d, want %d", c.lane, c.off, got, c.want)
		}
	}
}

// TestVSharpCache: an operation's cached V# is always the decoding of the
// SGPRs' current words and the wave's target, as they change (one word at a
// time, back to an earlier V#, to the other target) or stay.
func TestVSharpCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var c ref.VsCache
	w := &Wave{}
	for i := range 2000 {
		switch rng.IntN(4) {
		case 0:
			w.S[12+rng.IntN(4)] = rng.Uint32()
		case 1:
			w.Target = []isa.Target{isa.GFX8, isa.GFX9}[rng.IntN(2)]
		case 2:
			w.S[12], w.S[13], w.S[14], w.S[15] = 0, 0, 0, 0
		}
		words := [4]uint32{w.S[12], w.S[13], w.S[14], w.S[15]}
		if got, want := *c.Read(w, 12), ref.DecodeDesc(words, w.Target); got != want {
			t.Fatalf("step %d: %+v, want %+v", i, got, want)
		}
	}
}

// TestSwizzleFormula checks bufOffset against the swizzled addressing of
// Vega ISA §8.1.5 for every element size and index stride.
func TestSwizzleFormula(t *testing.T) {
	for es := uint32(0); es < 4; es++ {
		for is := uint32(0); is < 4; is++ {
			w3 := es<<19 | is<<21
			v := ref.DecodeDesc([4]uint32{0, 1<<31 | 48<<16, 1 << 30, w3}, isa.GFX8)
			E, I := uint32(2)<<es, uint32(8)<<is
			for _, idx := range []uint32{0, 1, 7, 8, 63, 64, 100} {
				for _, off := range []uint32{0, 1, 3, 4, 17, 47} {
					want := off%E + E*(idx%I) + I*((idx/I)*48+(off/E)*E)
					if got := v.BufOffset(idx, off); got != want {
						t.Fatalf("es %d is %d idx %d off %d: %d, want %d", E, I, idx, off, got, want)
					}
				}
			}
		}
	}
	// GFX9 ignores ELEMSIZE: the element is 4 bytes.
	if v := ref.DecodeDesc([4]uint32{0, 1 << 31, 0, 3 << 19}, isa.GFX9); v.ElemSize != 4 {
		t.Errorf("GFX9 element size %d", v.ElemSize)
	}
}

// TestRangeCheck applies the range rules of Vega ISA §8.1.5: stride 0 compares BUFOFFSET
// with NUMRECORDS - SOFFSET; otherwise AINDEX with NUMRECORDS, and AOFFSET
// with STRIDE when IDXEN or ADD_TID is set.
func TestRangeCheck(t *testing.T) {
	raw := ref.Desc{NumRecords: 100}
	rec := ref.Desc{NumRecords: 10, Stride: 16}
	tid := ref.Desc{NumRecords: 10, Stride: 16, AddTid: true}
	tests := []struct {
		v           ref.Desc
		idxen       bool
		index, aoff uint32
		soff        uint32
		want        bool
	}{
		{raw, false, 0, 99, 0, true},
		{raw, false, 0, 100, 0, false},
		{raw, false, 0, 89, 10, true},
		{raw, false, 0, 90, 10, false},
		{raw, false, 0, 0, 200, false},
		{rec, true, 9, 15, 0, true},
		{rec, true, 10, 0, 0, false},
		{rec, true, 3, 16, 0, false},
		{rec, false, 0, 40, 0, true}, // no IDXEN: the offset is not checked against STRIDE
		{tid, false, 9, 15, 0, true},
		{tid, false, 3, 16, 0, false},
	}
	for i, tt := range tests {
		o := &ref.VmOp{Idxen: tt.idxen}
		if got := tt.v.Check(o, tt.index, tt.aoff, tt.soff); got != tt.want {
			t.Errorf("case %d: in range %v, want %v", i, got, tt.want)
		}
	}
}

// TestFormats converts values through every data format with the number
// formats that apply, and checks the layouts of Vega ISA §8.1.4, §8.4.4.
func TestFormats(t *testing.T) {
	f32b := math.Float32bits
	// 2_10_10_10 (9): X in bits 9:0; 10_10_10_2 (8): X in bits 1:0.
	b := []byte{0x01, 0x00, 0x00, 0xc0} // X=1 (9), W=3
	if v := ref.FormatLoad(b, 9, ref.NfUINT, nil); v[0] != 1 || v[3] != 3 {
		t.Errorf("2_10_10_10 uint: %v", v)
	}
	if v := ref.FormatLoad(b, 8, ref.NfUINT, nil); v[0] != 1 || v[3] != 0x300 {
		t.Errorf("10_10_10_2 uint: %v", v)
	}
	// 8_8_8_8 UNORM and SNORM.
	if v := ref.FormatLoad([]byte{255, 0, 128, 51}, 10, ref.NfUNORM, nil); v[0] != f32b(1) || v[1] != 0 || v[3] != f32b(0.2) {
		t.Errorf("8_8_8_8 unorm: %v", v)
	}
	if v := ref.FormatLoad([]byte{0x81, 0x80, 0x7f, 0}, 10, ref.NfSNORM, nil); v[0] != f32b(-1) || v[1] != f32b(-1) || v[2] != f32b(1) {
		t.Errorf("8_8_8_8 snorm: %v", v)
	}
	// Missing components: W reads 1 (as a float for float formats).
	if v := ref.FormatLoad([]byte{7, 0}, 2, ref.NfUINT, nil); v[0] != 7 || v[1] != 0 || v[3] != 1 {
		t.Errorf("16 uint: %v", v)
	}
	if v := ref.FormatLoad([]byte{0, 0x3c}, 2, ref.NfFLOAT, nil); v[0] != f32b(1) || v[3] != f32b(1) {
		t.Errorf("16 float: %v", v)
	}
	// DST_SEL: swap X and Y, constant 0 and 1.
	if v := ref.FormatLoad([]byte{1, 0, 2, 0}, 5, ref.NfUINT, []uint8{5, 4, 0, 1}); v != [4]uint32{2, 1, 0, 1} {
		t.Errorf("dst_sel: %v", v)
	}
	// 10_11_11 FLOAT: X is an 11-bit float in bits 10:0; 1.0 = 15<<6.
	if v := ref.FormatLoad([]byte{0xc0, 0x03, 0, 0}, 6, ref.NfFLOAT, nil); v[0] != f32b(1) {
		t.Errorf("10_11_11 float: %#x", v[0])
	}
	// Store then load returns the value for exactly representable inputs.
	for df := uint8(1); df < 15; df++ {
		for nf := uint8(0); nf < 8; nf++ {
			f := &ref.BufFormats[df]
			var in [4]uint32
			for c, w := range f.Bits {
				switch {
				case nf == ref.NfFLOAT && w < 32 && w != 16 && w != 11 && w != 10:
					continue
				case nf == ref.NfFLOAT:
					in[c] = f32b(0.5)
				case nf == ref.NfUINT || nf == ref.NfSINT:
					in[c] = 1
				case nf == ref.NfUSCALED || nf == ref.NfSSCALED:
					in[c] = f32b(1)
				default: // the norms: 0 and 1 are exact
					in[c] = f32b(1)
				}
			}
			if nf == ref.NfFLOAT && f.Bits[0] != 32 && f.Bits[0] != 16 && f.Bits[0] != 11 && f.Bits[0] != 10 {
				continue
			}
			if nf == ref.NfSNORMOGL || f.Bits[0] == 2 && nf != ref.NfUINT {
				continue
			}
			buf := make([]byte, f.Bytes)
			ref.FormatStore(in, df, nf, buf)
			out := ref.FormatLoad(buf, df, nf, nil)
			for c, w := range f.Bits {
				if w == 2 && nf != ref.NfUINT && nf != ref.NfUNORM {
					continue
				}
				if out[c] != in[c] {
					t.Errorf("format %s nf %d comp %d: stored %#x, loaded %#x", f.Name, nf, c, in[c], out[c])
				}
			}
		}
	}
}

func TestHalf(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := ref.HalfToF32(uint16(h))
		if f != f {
			continue
		}
		if got := ref.F32ToHalf(f); got != uint16(h) {
			t.Fatalf("%#04x -> %g -> %#04x", h, f, got)
		}
	}
}

// TestBankConflicts: 32 banks of 4 bytes, per half-wave; a shared dword is
// broadcast.
func TestBankConflicts(t *testing.T) {
	var a [64]uint32
	pattern := func(f func(l int) uint32) [64]uint32 {
		for l := range a {
			a[l] = f(l)
		}
		return a
	}
	all := ^uint64(0)
	tests := []struct {
		name  string
		addrs [64]uint32
		mask  uint64
		want  int
	}{
		{"consecutive dwords", pattern(func(l int) uint32 { return uint32(4 * l) }), all, 0},
		{"one dword", pattern(func(l int) uint32 { return 64 }), all, 0},
		{"stride 8", pattern(func(l int) uint32 { return uint32(8 * l) }), all, 2},
		{"stride 128", pattern(func(l int) uint32 { return uint32(128 * l) }), all, 62},
		{"stride 128, one half", pattern(func(l int) uint32 { return uint32(128 * l) }), 0xffffffff, 31},
		{"padded transpose column", pattern(func(l int) uint32 { return uint32(4 * 17 * (l % 16)) }), all, 0},
		{"unpadded transpose column", pattern(func(l int) uint32 { return uint32(4 * 16 * (l % 16)) }), all, 14},
	}
	for _, tt := range tests {
		if got := ref.BankConflicts(tt.addrs, tt.mask); got != tt.want {
			t.Errorf("%s: %d extra cycles, want %d", tt.name, got, tt.want)
		}
	}
}

// TestABICorpus: for every committed oracle code object (v2 to v5, gfx900
// and gfx803) the user SGPRs the ABI enables add up to USER_SGPR_COUNT, and
// the kernarg segment places every hidden argument.
func TestABICorpus(t *testing.T) {
	var paths []string
	for _, dir := range []string{"gfx900", "gfx803", "cov"} {
		p, _ := filepath.Glob(filepath.Join("testdata", "cl", dir, "*.co"))
		paths = append(paths, p...)
	}
	if len(paths) < 40 {
		t.Fatalf("only %d code objects", len(paths))
	}
	for _, p := range paths {
		co, err := loader.Load(p, loader.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for i := range co.Kernels {
			k := &co.Kernels[i]
			abi, err := ABIOf(k, co.Version)
			if err != nil {
				t.Errorf("%s %s: %v", p, k.Name, err)
				continue
			}
			if got, want := abi.UserSGPRs(), int(abi.Rsrc2.UserSGPRCount); got != want {
				t.Errorf("%s %s (v%d): enabled user SGPRs %d, USER_SGPR_COUNT %d", p, k.Name, co.Version, got, want)
			}
			d := &Dispatch{ABI: abi, Grid: [3]uint32{96, 5, 1}, Block: [3]uint32{64, 2, 1}, Offset: [3]uint32{7, 8, 9}, Dims: 2, GroupLDS: abi.GroupSegmentFixedSize + 32}
			var vals [][]byte
			for _, a := range k.Meta.Args {
				if !a.ValueKind.Hidden() {
					vals = append(vals, make([]byte, a.Size))
				}
			}
			ka, err := d.BuildKernarg(k.Meta, vals)
			if err != nil {
				t.Errorf("%s %s: %v", p, k.Name, err)
				continue
			}
			for _, a := range k.Meta.Args {
				got := ka[a.Offset : a.Offset+a.Size]
				var want uint64
				switch a.ValueKind {
				case loader.HiddenGlobalOffsetX:
					want = 7
				case loader.HiddenGlobalOffsetZ:
					want = 9
				case loader.HiddenBlockCountX:
					want = 1 // one whole 64-wide group in 96
				case loader.HiddenRemainderX:
					want = 32
				case loader.HiddenGroupSizeY:
					want = 2
				case loader.HiddenGridDims:
					want = 2
				case loader.HiddenDynamicLDSSize:
					want = 32
				default:
					continue
				}
				var v uint64
				for i := len(got) - 1; i >= 0; i-- {
					v = v<<8 | uint64(got[i])
				}
				if v != want {
					t.Errorf("%s %s: %s = %d, want %d", p, k.Name, a.ValueKind, v, want)
				}
			}
		}
		co.Close()
	}
}
