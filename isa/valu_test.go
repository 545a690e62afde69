package isa

// VALU tests: a golden corpus (testdata/valu.txt, LLVM 19's text for every
// VALU opcode in several operand shapes and for seeded random words) that
// needs no LLVM, the same cases compared live with LLVM, and checks of the
// decoded operand facts.
//
//	go test ./isa -run VALU                      golden + live (live skips without LLVM)
//	go test ./isa -run VALUGolden -valu.update   regenerate testdata/valu.txt from LLVM 19

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
)

var valuUpdate = flag.Bool("valu.update", false, "rewrite testdata/valu.txt from LLVM 19")

var valuGolden = filepath.Join("testdata", "valu.txt")

var valuEncodings = []Encoding{EncVOP1, EncVOP2, EncVOPC, EncVOP3, EncVOP3P, EncVINTRP}

// valuCPUs are the processors the VALU tests compare: one per generation
// and gfx906 for its extra opcodes.
var valuCPUs = []string{"gfx803", "gfx900", "gfx906"}

// valuCases returns, for a processor, representative words of every VALU
// form (registers, constants, literals, modifiers, SDWA and DPP) and
// seeded random words of each VALU encoding.
func valuCases(cpu string, random int) [][]uint32 {
	t, _ := TargetOf(cpu)
	feat := FeaturesOf(cpu)
	var cs [][]uint32
	for i := range forms {
		f := &forms[i]
		if lookupFormWith(t, feat, f.Enc, f.Opcode) != f {
			continue
		}
		cs = append(cs, valuRepresentative(t, f)...)
	}
	r := rand.New(rand.NewPCG(11, uint64(t)+uint64(feat)<<8))
	for _, e := range valuEncodings {
		if e == EncVOP3P && t == GFX8 {
			continue
		}
		for i := 0; i < random; i++ {
			cs = append(cs, []uint32{encPrefix(e, r.Uint32(), r), r.Uint32(), r.Uint32()})
		}
	}
	return cs
}

const valuLit = 0x3e800000 // 0.25, not an inline constant

// valuRepresentative builds the cases of one form.
func valuRepresentative(t Target, f *Form) [][]uint32 {
	op := uint32(f.Opcode)
	var cs [][]uint32
	switch f.Enc {
	case EncVOP1, EncVOP2, EncVOPC:
		var base uint32
		switch f.Enc {
		case EncVOP1:
			base = 0x7e000000 | 10<<17 | op<<9
		case EncVOP2:
			base = op<<25 | 10<<17 | 30<<9
		case EncVOPC:
			base = 0x7c000000 | op<<17 | 30<<9
		}
		if len(f.Operands) == 0 {
			base &^= 0xff << 17
			return [][]uint32{{base}}
		}
		for _, s0 := range []uint32{256 + 20, 20, 0xf2, 0xc1, 0xf8, 0xff} {
			cs = append(cs, []uint32{base | s0, valuLit})
		}
		if f.Flags&FlagSdwa != 0 {
			cs = append(cs,
				[]uint32{base | srcSDWA, 20 | 6<<8 | 6<<16 | 6<<24},
				[]uint32{base | srcSDWA, 20 | 5<<8 | 2<<11 | 1<<13 | 4<<16 | 1<<24 | 0x30<<16 | 0x30<<24},
				[]uint32{base | srcSDWA, 20 | 1<<8 | 1<<11 | 3<<16 | 1<<19 | 2<<24 | 1<<27})
			if t == GFX9 {
				cs = append(cs,
					[]uint32{base | srcSDWA, 0xc1 | 6<<8 | 6<<16 | 1<<23 | 6<<24 | 1<<31},
					[]uint32{base | srcSDWA, 20 | 1<<14 | 6<<16 | 6<<24 | 1<<15 | 40<<8},
					[]uint32{base | srcSDWA, 20 | 6<<16 | 6<<24 | 1<<15 | 106<<8})
			}
		}
		if f.Flags&FlagDpp != 0 {
			for _, ctrl := range []uint32{0xe4, 0x1b, 0x101, 0x11f, 0x121, 0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143} {
				cs = append(cs, []uint32{base | srcDPP, 20 | ctrl<<8 | 0xf<<24 | 0xa<<28})
			}
			cs = append(cs, []uint32{base | srcDPP, 20 | 0xe4<<8 | 1<<19 | 0xf<<20 | 0x3<<24 | 0xf<<28})
		}
	case EncVOP3:
		w0 := 0xd0000000 | op<<16
		var w1 uint32
		var mods0, mods1 uint32
		for _, s := range f.Operands {
			switch s.Field {
			case FieldVDST:
				w0 |= 10
			case FieldSDST:
				if srcSpec(f, FieldVDST) != nil {
					w0 |= 50 << 8
				} else {
					w0 |= 50
				}
			case FieldSRC0, FieldSRC1, FieldSRC2:
				i := srcIndex(s.Field)
				c := uint32(256 + 20 + 10*i)
				if s.Type == TypeB64 && i == 2 {
					c = 40 // a lane mask
				}
				w1 |= c << (9 * i)
				if n, a := vop3SrcMods(f, i); n == modPrinted && a == modPrinted {
					mods1 |= 1 << (29 + i)
					mods0 |= 1 << (8 + i)
				}
			case FieldATTR:
				w1 |= 7 | 2<<6
			case FieldPARAM:
				w1 |= 1 << 9
			}
		}
		cs = append(cs, []uint32{w0, w1})
		v := w0 | mods0
		if f.Flags&FlagClamp != 0 {
			v |= 1 << 15
		}
		m := w1 | mods1
		if f.Flags&FlagOmod != 0 {
			m |= 3 << 27
		}
		cs = append(cs, []uint32{v, m})
		if f.Flags&FlagOpsel != 0 {
			cs = append(cs, []uint32{w0 | 0xf<<11, w1})
		}
		if srcSpec(f, FieldSRC0) != nil && srcSpec(f, FieldATTR) == nil {
			cs = append(cs, []uint32{w0, w1&^0x1ff | 0xf0}, []uint32{w0, w1&^0x1ff | 0xc4 | mods1}, []uint32{w0, w1&^0x1ff | 126})
		}
		if srcSpec(f, FieldATTR) != nil && f.Flags&FlagHigh != 0 {
			cs = append(cs, []uint32{w0, w1 | 1<<8})
		}
	case EncVOP3P:
		w0 := 0xd3800000 | op<<16 | 10
		var w1 uint32
		for k := 0; k < 3; k++ {
			if srcSpec(f, vop3Srcs[k]) != nil {
				w1 |= uint32(256+20+10*k) << (9 * k)
			}
		}
		cs = append(cs, []uint32{w0, w1}, []uint32{w0 | 1<<14, w1 | 3<<27},
			[]uint32{w0 | 5<<11 | 3<<8 | 1<<15, w1 | 1<<27 | 4<<29}, []uint32{w0, w1&^0x1ff | 0xf2})
	case EncVINTRP:
		w := 0xd4000000 | 10<<18 | op<<16 | 5<<10 | 20
		cs = append(cs, []uint32{w}, []uint32{w | 3<<8}, []uint32{w&^0xff | 2})
	}
	return cs
}

// TestVALUGolden decodes every case of testdata/valu.txt and compares text
// and length with LLVM 19's, recorded there.
func TestVALUGolden(t *testing.T) {
	if *valuUpdate {
		writeVALUGolden(t)
	}
	cs := readGolden(t, valuGolden)
	counts := map[string][2]int{}
	bad := 0
	for _, c := range cs {
		tg, _ := TargetOf(c.cpu)
		var inst Inst
		err := DecodeWith(wordBytes(c.words), tg, FeaturesOf(c.cpu), &inst)
		have, n := "<invalid>", 1
		if err == nil {
			have, n = inst.String(), inst.Len/4
		}
		key := c.cpu + " " + EncodingOf(c.words[0], tg).String()
		k := counts[key]
		k[1]++
		if have == c.text && n == len(c.words) {
			k[0]++
		} else if bad++; bad <= 20 {
			t.Errorf("%s %s: have %q (%d words), want %q (%d words)", c.cpu, hexWords(c.words), have, n, c.text, len(c.words))
		}
		counts[key] = k
	}
	for k, v := range counts {
		t.Logf("%-14s %6d/%d", k, v[0], v[1])
	}
}

func writeVALUGolden(t *testing.T) {
	needLLVM(t)
	var b strings.Builder
	b.WriteString("# VALU golden cases: CPU<tab>WORDS<tab>LLVM 19 text (<invalid> when LLVM rejects the first word).\n")
	b.WriteString("# Generated by go test ./isa -run TestVALUGolden -valu.update (llvm-mc-19 + llvm-objdump-19):\n")
	b.WriteString("# every VALU opcode in several operand shapes, then 600 seeded random words per VALU encoding.\n")
	for _, cpu := range valuCPUs {
		cases := valuCases(cpu, 600)
		res, err := llvmdis.Disasm(cpu, cases)
		if err != nil {
			t.Fatal(err)
		}
		writeGoldenLines(&b, cpu, cases, res, nil)
	}
	if err := os.WriteFile(valuGolden, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVALULLVM compares the representative cases and 20,000 random words
// per VALU encoding and target with LLVM live.
func TestVALULLVM(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	needLLVM(t)
	for _, cpu := range valuCPUs {
		tg, _ := TargetOf(cpu)
		cases := valuCases(cpu, 20000)
		res, err := llvmdis.Disasm(cpu, cases)
		if err != nil {
			t.Fatal(err)
		}
		ty := newTally()
		for i, c := range cases {
			ty.compare(tg, FeaturesOf(cpu), EncodingOf(c[0], tg).String(), c, res[i])
		}
		ty.check(t, fmt.Sprintf("%s: %d VALU cases vs llvm-objdump-%d", cpu, len(cases), llvmdis.Version))
	}
}

// TestVALUOperands checks the decoded facts of a few instructions.
func TestVALUOperands(t *testing.T) {
	for _, c := range []struct {
		t     Target
		words []uint32
		text  string
		check func(t *testing.T, inst *Inst)
	}{
		{GFX9, []uint32{0x38141314}, "v_addc_co_u32_e32 v10, vcc, v20, v9, vcc", func(t *testing.T, inst *Inst) {
			if inst.Op != V_ADDC_CO_U32 || inst.Variant != VariantE32 || len(inst.Args) != 5 {
				t.Fatalf("%+v", inst)
			}
			if a := inst.Args[1]; a.Kind != KindSpecial || a.Reg != uint16(VCCLo) || a.Width != 2 || a.Access != Write {
				t.Errorf("carry out %+v", a)
			}
			if a := inst.Args[4]; a.Access != Read || a.Field != FieldVCC {
				t.Errorf("carry in %+v", a)
			}
			if !inst.Op.Info().Flags.Has(FlagVCCRead | FlagVCCWrite) {
				t.Errorf("flags %v", inst.Op.Info().Flags)
			}
		}},
		{GFX8, []uint32{0x38141314}, "v_addc_u32_e32 v10, vcc, v20, v9, vcc", func(t *testing.T, inst *Inst) {
			if inst.Op != V_ADDC_CO_U32 {
				t.Errorf("GFX8 v_addc_u32 is Op %v", inst.Op)
			}
		}},
		{GFX9, []uint32{0xd1e8320a, 0x04a23d14}, "v_mad_u64_u32 v[10:11], s[50:51], v20, v30, v[40:41]", func(t *testing.T, inst *Inst) {
			want := []struct {
				kind  OperandKind
				reg   uint16
				width uint8
				typ   DataType
				acc   Access
			}{{KindVGPR, 10, 2, TypeU64, Write}, {KindSGPR, 50, 2, TypeB64, Write}, {KindVGPR, 20, 1, TypeU32, Read},
				{KindVGPR, 30, 1, TypeU32, Read}, {KindVGPR, 40, 2, TypeU64, Read}}
			for i, w := range want {
				a := inst.Args[i]
				if a.Kind != w.kind || a.Reg != w.reg || a.Width != w.width || a.Type != w.typ || a.Access != w.acc {
					t.Errorf("arg %d: %+v, want %+v", i, a, w)
				}
			}
		}},
		{GFX9, []uint32{0xd101010a, 0x28023cf2}, "v_add_f32_e64 v10, -|1.0|, v30 mul:2", func(t *testing.T, inst *Inst) {
			a := inst.Args[1]
			if a.Kind != KindInline || !a.Neg || !a.Abs || InlineValue(a.Reg, a.Type) != 0x3f800000 || inst.Mods.Omod != 1 {
				t.Errorf("%+v %+v", a, inst.Mods)
			}
		}},
		{GFX9, []uint32{0x7e1402f9, 0x000c0514}, "v_mov_b32_sdwa v10, sext(v20) dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0", func(t *testing.T, inst *Inst) {
			if inst.Variant != VariantSDWA || inst.Mods.DstSel != 5 || inst.Mods.Src0Sel != 4 || !inst.Args[1].Sext {
				t.Errorf("%+v", inst)
			}
		}},
		{GFX8, []uint32{0x021e3cfa, 0xff090114}, "v_add_f32_dpp v15, v20, v30 row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1", func(t *testing.T, inst *Inst) {
			if inst.Variant != VariantDPP || inst.Mods.DPPCtrl != 0x101 || !inst.Mods.BoundCtrl {
				t.Errorf("%+v", inst.Mods)
			}
		}},
		{GFX9, []uint32{0xd38f400a, 0x18023d14}, "v_pk_add_f16 v10, v20, v30", func(t *testing.T, inst *Inst) {
			if inst.Args[1].Type != TypeV2F16 || inst.Mods.OpSelHi != 3 {
				t.Errorf("%+v %+v", inst.Args[1], inst.Mods)
			}
		}},
		{GFX9, []uint32{0xd4281605}, "v_interp_p1_f32_e32 v10, v5, attr5.z", func(t *testing.T, inst *Inst) {
			if inst.Mods.Attr != 5 || inst.Mods.AttrChan != 2 || !inst.Op.Info().Flags.Has(FlagM0Read) {
				t.Errorf("%+v", inst.Mods)
			}
		}},
		{GFX9, []uint32{0x7ca81514}, "v_cmpx_gt_f32_e32 vcc, v20, v10", func(t *testing.T, inst *Inst) {
			if !inst.Op.Info().Flags.Has(FlagExecWrite) || inst.Args[0].Access != Write {
				t.Errorf("%+v", inst)
			}
		}},
	} {
		inst, err := Decode(wordBytes(c.words), c.t)
		if err != nil {
			t.Errorf("%08X: %v", c.words, err)
			continue
		}
		if s := inst.String(); s != c.text {
			t.Errorf("%08X: %q, want %q", c.words, s, c.text)
			continue
		}
		t.Run(c.text, func(t *testing.T) { c.check(t, &inst) })
	}
}

// TestVALUTruncated checks that a VOP3, SDWA or DPP word pair or a VOP
// literal (including v_madmk's constant) cut off is an error.
func TestVALUTruncated(t *testing.T) {
	for _, w := range []uint32{0xd1010a0a, 0x7e1402f9, 0x021e3cfa, 0x020000ff, 0x17<<25 | 10<<17 | 30<<9 | 276} {
		if _, err := Decode(wordBytes([]uint32{w}), GFX9); err != ErrTruncated {
			t.Errorf("%08X: err %v, want ErrTruncated", w, err)
		}
	}
}

// TestVALUHarvest regenerates tables/valu.txt with the harvester and
// LLVM 19 and checks that it equals the committed table.
func TestVALUHarvest(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	checkHarvest(t, "valu")
}

// BenchmarkVALU decodes and prints the golden VALU cases.
func BenchmarkVALU(b *testing.B) {
	cs := readGolden(b, valuGolden)
	type c struct {
		b []byte
		t Target
		f Features
	}
	var in []c
	for _, x := range cs {
		t, _ := TargetOf(x.cpu)
		in = append(in, c{wordBytes(x.words), t, FeaturesOf(x.cpu)})
	}
	var inst Inst
	var buf []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x := &in[i%len(in)]
		if DecodeWith(x.b, x.t, x.f, &inst) == nil {
			buf = inst.AppendText(buf[:0], 0, nil)
		}
	}
}
