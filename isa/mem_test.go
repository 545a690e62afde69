package isa

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
)

// memEncodings are the memory encodings with the fixed bits of their
// first word (bits 31:26).
var memEncodings = []struct {
	enc  Encoding
	bits uint32
}{
	{EncDS, 0x36 << 26},
	{EncMUBUF, 0x38 << 26},
	{EncMTBUF, 0x3a << 26},
	{EncMIMG, 0x3c << 26},
	{EncEXP, 0x31 << 26},
	{EncFLAT, 0x37 << 26},
}

var (
	memRandom = flag.Int("mem.random", 5000, "random words per memory encoding and target in TestMemLLVMRandom")
	memSeed   = flag.Int64("mem.seed", 1, "seed of TestMemLLVMRandom")
	memUpdate = flag.Bool("mem.update", false, "rewrite testdata/mem.txt from LLVM")
)

var memCPUs = flag.String("mem.cpus", "gfx803,gfx900,gfx906", "processors the memory tests compare against LLVM")

type memTarget struct {
	cpu string
	t   Target
	f   Features
}

// memFeatures returns the features to decode for processor cpu with.
func memFeatures(cpu string) Features {
	f := FeaturesOf(cpu)
	if strings.HasPrefix(cpu, "gfx810") {
		f |= FeatPackedD16
	}
	return f
}

// memTargets returns the processors the memory tests compare against.
func memTargets() []memTarget {
	var ts []memTarget
	for _, c := range strings.Split(*memCPUs, ",") {
		if t, ok := TargetOf(c); ok {
			ts = append(ts, memTarget{c, t, memFeatures(c)})
		}
	}
	return ts
}

// decodeText decodes words for t and returns the text, or "<invalid>".
func decodeText(words []uint32, t Target, f Features) string {
	var inst Inst
	if err := DecodeWith(wordBytes(words), t, f, &inst); err != nil {
		return "<invalid>"
	}
	return inst.String()
}

// TestMemGolden checks the committed cases in testdata/mem.txt: one line
// per case, "TARGET WORD WORD: TEXT" (TEXT is <invalid> for words LLVM
// rejects), produced by LLVM 19 (go test ./isa -run TestMemGolden -mem.update).
func TestMemGolden(t *testing.T) {
	path := filepath.Join("testdata", "mem.txt")
	if *memUpdate {
		updateMemGolden(t, path)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, bad := 0, 0
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if s == "" || s[0] == '#' {
			continue
		}
		head, want, ok := strings.Cut(s, ": ")
		if !ok {
			t.Fatalf("%s:%d: bad line", path, line)
		}
		fs := strings.Fields(head)
		tg, ok := TargetOf(fs[0])
		if !ok {
			t.Fatalf("%s:%d: bad target", path, line)
		}
		var words []uint32
		for _, h := range fs[1:] {
			w, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
			words = append(words, uint32(w))
		}
		got := decodeText(words, tg, memFeatures(fs[0]))
		n++
		if got != want {
			bad++
			if bad <= 20 {
				t.Errorf("%s:%d: %s: got %q, want %q", path, line, head, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d golden cases differ", bad, n)
	}
}

// memOpcodeCases returns, for every opcode of every memory encoding,
// words with representative operands and modifiers.
func memOpcodeCases(rng *rand.Rand) [][]uint32 {
	var cs [][]uint32
	r := func() uint32 { return rng.Uint32() }
	for op := uint32(0); op < 256; op++ {
		base := 0x36<<26 | op<<17
		cs = append(cs, []uint32{base, 1 | 2<<8 | 3<<16 | 4<<24}, []uint32{base | 0x1234, 10 | 20<<8 | 30<<24},
			[]uint32{base | 0x10000 | 0x0102, 5 | 6<<24}, []uint32{base | r()&0x1ffff, r()})
	}
	for op := uint32(0); op < 128; op++ {
		base := uint32(0x38<<26) | op<<18
		cs = append(cs, []uint32{base, 2<<8 | 1<<16 | 0x80<<24}, []uint32{base | 1<<12 | 0x7ff, 10 | 12<<8 | 2<<16 | 5<<24},
			[]uint32{base | 3<<12 | 1<<14, 10 | 12<<8 | 2<<16 | 0xc1<<24}, []uint32{base | 1<<16 | 4, 2<<16 | 0x7c<<24},
			[]uint32{base | 1<<13 | 1<<17, 10 | 12<<8 | 1<<23 | 3<<16 | 0xf0<<24})
		mb := uint32(0x3c<<26) | op<<18
		cs = append(cs, []uint32{mb | 0xf<<8, 4 | 8<<8 | 2<<16 | 1<<21}, []uint32{mb | 1<<8 | 1<<12 | 1<<16, 4 | 8<<8 | 2<<16},
			[]uint32{mb | 3<<8 | 1<<13 | 1<<25, 4 | 8<<8 | 2<<16 | 1<<31}, []uint32{mb | 7<<8 | 1<<14 | 1<<15 | 1<<17, 4 | 8<<8 | 4<<16 | 2<<21})
		for seg := uint32(0); seg < 3; seg++ {
			fb := uint32(0x37<<26) | op<<18 | seg<<14
			cs = append(cs, []uint32{fb, 2 | 4<<8 | 6<<24}, []uint32{fb | 1<<16 | 0x123, 2 | 4<<8 | 0x7f<<16 | 6<<24},
				[]uint32{fb | 1<<17 | 0x1ff0, 2 | 4<<8 | 8<<16 | 6<<24}, []uint32{fb | 1<<13, 2 | 0x7f<<16})
		}
	}
	for op := uint32(0); op < 16; op++ {
		base := uint32(0x3a<<26) | op<<15
		cs = append(cs, []uint32{base | 1<<19, 2<<8 | 1<<16 | 0x80<<24}, []uint32{base | 4<<19 | 7<<23 | 1<<12 | 8, 10 | 12<<8 | 2<<16 | 5<<24},
			[]uint32{base | 3<<12 | 1<<14 | 14<<19, 10 | 12<<8 | 2<<16 | 1<<22 | 0xc1<<24})
	}
	for tgt := uint32(0); tgt < 64; tgt++ {
		cs = append(cs, []uint32{0x31<<26 | tgt<<4 | 0xf, 1 | 2<<8 | 3<<16 | 4<<24},
			[]uint32{0x31<<26 | tgt<<4 | 5 | 7<<10, 1 | 2<<8 | 3<<16 | 4<<24})
	}
	return cs
}

// memRandomCases returns n seeded random words for each memory encoding.
func memRandomCases(rng *rand.Rand, n int) [][]uint32 {
	var cs [][]uint32
	for _, e := range memEncodings {
		for i := 0; i < n; i++ {
			w0 := e.bits | rng.Uint32()&(1<<26-1)
			cs = append(cs, []uint32{w0, rng.Uint32()})
		}
	}
	return cs
}

// compareLLVM decodes every case for every target and compares with LLVM,
// reporting agreement per encoding.
func compareLLVM(t *testing.T, name string, cases [][]uint32) {
	t.Helper()
	needLLVM(t)
	for _, tg := range memTargets() {
		res, err := llvmdis.Disasm(tg.cpu, cases)
		if err != nil {
			t.Fatal(err)
		}
		ty := newTally()
		for i, c := range cases {
			ty.compare(tg.t, tg.f, EncodingOf(c[0], tg.t).String(), c, res[i])
		}
		ty.check(t, fmt.Sprintf("%s %s: %d cases vs llvm-objdump-%d", name, tg.cpu, len(cases), llvmdis.Version))
	}
}

func TestMemLLVMOpcodes(t *testing.T) {
	compareLLVM(t, "opcodes", memOpcodeCases(rand.New(rand.NewSource(1))))
}

func TestMemLLVMRandom(t *testing.T) {
	n := *memRandom
	if testing.Short() {
		n /= 10
	}
	compareLLVM(t, "random", memRandomCases(rand.New(rand.NewSource(*memSeed)), n))
}

// updateMemGolden rewrites the golden file from LLVM: the opcode cases
// and 300 random words per encoding, for each target.
func updateMemGolden(t *testing.T, path string) {
	if !llvmdis.Available() {
		t.Fatal("-mem.update needs the LLVM 19 tools")
	}
	rng := rand.New(rand.NewSource(2))
	cases := append(memOpcodeCases(rng), memRandomCases(rng, 300)...)
	var sb strings.Builder
	sb.WriteString("# Memory-encoding cases (DS, MUBUF, MTBUF, MIMG, EXP, FLAT) and LLVM 19's text.\n")
	sb.WriteString("# Generated by go test ./isa -run TestMemGolden -mem.update; TARGET WORDS: TEXT.\n")
	for _, tg := range memTargets() {
		res, err := llvmdis.Disasm(tg.cpu, cases)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			text, words := "<invalid>", c[:1]
			if !res[i].Invalid {
				text, words = res[i].Text, c[:res[i].Words]
			}
			fmt.Fprintf(&sb, "%s", tg.cpu)
			for _, w := range words {
				fmt.Fprintf(&sb, " %08X", w)
			}
			if res[i].Invalid {
				fmt.Fprintf(&sb, " %08X", c[1])
			}
			fmt.Fprintf(&sb, ": %s\n", text)
		}
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMemOperands checks the decoded form the emulator reads: operand
// kinds, widths and access, and the modifiers.
func TestMemOperands(t *testing.T) {
	type arg struct {
		kind   OperandKind
		reg    uint16
		width  uint8
		access Access
	}
	for _, c := range []struct {
		t     Target
		words []uint32
		text  string
		args  []arg
		check func(m *Modifiers) bool
	}{
		{GFX9, []uint32{0xd86c0004, 0x01000002}, "ds_read_b32 v1, v2 offset:4",
			[]arg{{KindVGPR, 1, 1, Write}, {KindVGPR, 2, 1, Read}},
			func(m *Modifiers) bool { return m.Offset == 4 && !m.GDS }},
		{GFX9, []uint32{0xd81c0201, 0x00030402}, "ds_write2_b32 v2, v4, v3 offset0:1 offset1:2",
			[]arg{{KindVGPR, 2, 1, Read}, {KindVGPR, 4, 1, Read}, {KindVGPR, 3, 1, Read}},
			func(m *Modifiers) bool { return m.Offset0 == 1 && m.Offset1 == 2 && m.Offset == 0 }},
		{GFX9, []uint32{0xe0503008, 0x8002140a}, "buffer_load_dword v20, v[10:11], s[8:11], 0 idxen offen offset:8",
			[]arg{{KindVGPR, 20, 1, Write}, {KindVGPR, 10, 2, Read}, {KindSGPR, 8, 4, Read}, {KindInline, 128, 1, Read}},
			func(m *Modifiers) bool { return m.IdxEn && m.OffEn && m.Offset == 8 }},
		{GFX9, []uint32{0xe0500000, 0x1e82140a}, "buffer_load_dword v[20:21], off, s[8:11], s30 tfe",
			[]arg{{KindVGPR, 20, 2, Write}, {KindNone, 0, 0, Read}, {KindSGPR, 8, 4, Read}, {KindSGPR, 30, 1, Read}},
			func(m *Modifiers) bool { return m.TFE }},
		{GFX9, []uint32{0xe1084000, 0x1e02140a}, "buffer_atomic_add v20, off, s[8:11], s30 glc",
			[]arg{{KindVGPR, 20, 1, ReadWrite}, {KindNone, 0, 0, Read}, {KindSGPR, 8, 4, Read}, {KindSGPR, 30, 1, Read}},
			func(m *Modifiers) bool { return m.GLC }},
		{GFX9, []uint32{0xdc508000, 0x287f0002}, "global_load_dword v40, v[2:3], off",
			[]arg{{KindVGPR, 40, 1, Write}, {KindVGPR, 2, 2, Read}, {KindNone, 0, 0, Read}},
			func(m *Modifiers) bool { return m.Seg == SegGlobal }},
		{GFX9, []uint32{0xdd089ff0, 0x00061402}, "global_atomic_add v2, v20, s[6:7] offset:-16",
			[]arg{{KindVGPR, 2, 1, Read}, {KindVGPR, 20, 1, Read}, {KindSGPR, 6, 2, Read}},
			func(m *Modifiers) bool { return m.Offset == -16 && !m.GLC }},
		{GFX9, []uint32{0xf0800f00, 0x00631402}, "image_sample v[20:23], v2, s[12:19], s[12:15] dmask:0xf",
			[]arg{{KindVGPR, 20, 4, Write}, {KindVGPR, 2, 1, Read}, {KindSGPR, 12, 8, Read}, {KindSGPR, 12, 4, Read}},
			func(m *Modifiers) bool { return m.DMask == 0xf }},
		{GFX9, []uint32{0xc4001c05, 0x00000201}, "exp mrt0 v1, off, v2, off done compr vm",
			[]arg{{KindVGPR, 1, 1, Read}, {KindNone, 0, 0, Read}, {KindVGPR, 2, 1, Read}, {KindNone, 0, 0, Read}},
			func(m *Modifiers) bool { return m.Compr && m.Done && m.VM && m.ExpEn == 5 }},
	} {
		b := make([]byte, 8)
		binary.LittleEndian.PutUint32(b, c.words[0])
		binary.LittleEndian.PutUint32(b[4:], c.words[1])
		inst, err := Decode(b, c.t)
		if err != nil {
			t.Errorf("%08X: %v", c.words, err)
			continue
		}
		if s := inst.String(); s != c.text {
			t.Errorf("%08X: %q, want %q", c.words, s, c.text)
		}
		if len(inst.Args) != len(c.args) {
			t.Errorf("%s: %d args, want %d", c.text, len(inst.Args), len(c.args))
			continue
		}
		for k, a := range c.args {
			g := inst.Args[k]
			if g.Kind != a.kind || g.Reg != a.reg || g.Width != a.width && a.kind != KindNone || g.Access != a.access {
				t.Errorf("%s: arg %d = %+v, want %+v", c.text, k, g, a)
			}
		}
		if !c.check(&inst.Mods) {
			t.Errorf("%s: modifiers %+v", c.text, inst.Mods)
		}
	}
}

// FuzzMemDecode feeds memory-encoding words (seeded from testdata/mem.txt)
// to the decoder: no panic, the same answer twice, and a decoded memory
// instruction is exactly two words and prints.
func FuzzMemDecode(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "mem.txt"))
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		head, _, ok := strings.Cut(line, ": ")
		fs := strings.Fields(head)
		if !ok || len(fs) < 3 || line[0] == '#' {
			continue
		}
		w0, _ := strconv.ParseUint(fs[1], 16, 32)
		w1, _ := strconv.ParseUint(fs[2], 16, 32)
		f.Add(uint32(w0), uint32(w1), fs[0] != "gfx803")
	}
	f.Fuzz(func(t *testing.T, w0, w1 uint32, gfx9 bool) {
		tg := GFX8
		if gfx9 {
			tg = GFX9
		}
		for _, n := range []int{4, 8} {
			b := make([]byte, 8)
			binary.LittleEndian.PutUint32(b, w0)
			binary.LittleEndian.PutUint32(b[4:], w1)
			b = b[:n]
			a, err1 := Decode(b, tg)
			c, err2 := Decode(b, tg)
			if err1 != err2 || a.Len != c.Len || a.String() != c.String() {
				t.Fatalf("not deterministic")
			}
			e := EncodingOf(w0, tg)
			isMem := e == EncDS || e == EncMUBUF || e == EncMTBUF || e == EncMIMG || e == EncEXP || e == EncFLAT
			if !isMem || err1 != nil {
				continue
			}
			if n == 4 {
				t.Fatalf("%08X decoded from one word", w0)
			}
			if a.Len != 8 || strings.Contains(a.String(), "<") && !strings.Contains(a.String(), "/*Invalid register") {
				t.Fatalf("%08X %08X: Len %d, %q", w0, w1, a.Len, a.String())
			}
		}
	})
}

// BenchmarkMemDecodePrint decodes and prints the memory golden cases.
func BenchmarkMemDecodePrint(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "mem.txt"))
	if err != nil {
		b.Fatal(err)
	}
	type c struct {
		t   Target
		src []byte
	}
	var cs []c
	for _, line := range strings.Split(string(data), "\n") {
		head, text, ok := strings.Cut(line, ": ")
		fs := strings.Fields(head)
		if !ok || len(fs) < 3 || line[0] == '#' || text == "<invalid>" {
			continue
		}
		tg, _ := TargetOf(fs[0])
		src := make([]byte, 8)
		for k := 0; k < 2; k++ {
			w, _ := strconv.ParseUint(fs[1+k], 16, 32)
			binary.LittleEndian.PutUint32(src[4*k:], uint32(w))
		}
		cs = append(cs, c{tg, src})
	}
	var inst Inst
	var buf []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := &cs[i%len(cs)]
		if err := DecodeInto(k.src, k.t, &inst); err != nil {
			b.Fatal(err)
		}
		buf = inst.AppendText(buf[:0], 0, nil)
	}
}

// TestMemLLVMSwizzle compares every ds_swizzle_b32 offset (the symbolic
// swizzle(...) printing) with LLVM.
func TestMemLLVMSwizzle(t *testing.T) {
	if testing.Short() {
		t.Skip("65,536 cases per target")
	}
	var cases [][]uint32
	for off := uint32(0); off < 1<<16; off++ {
		cases = append(cases, []uint32{0x36<<26 | 0x3d<<17 | off, 1 | 2<<24})
	}
	compareLLVM(t, "swizzle", cases)
}

// TestMemLLVMSweep compares field sweeps with LLVM: every MIMG opcode with
// every dmask, tfe and d16 and a vdata near v255; every MUBUF opcode with
// every combination of offen, idxen, glc, lds and tfe; every FLAT segment
// and opcode with glc, lds, nv and three kinds of saddr.
func TestMemLLVMSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	var cases [][]uint32
	for op := uint32(0); op < 128; op++ {
		for m := uint32(0); m < 64; m++ {
			w0 := 0x3c<<26 | op<<18 | (m&15)<<8 | (m>>4&1)<<16
			for _, vd := range []uint32{20, 253} {
				cases = append(cases, []uint32{w0, 4 | vd<<8 | 2<<16 | 1<<21 | (m>>5)<<31})
			}
		}
		for m := uint32(0); m < 32; m++ {
			w0 := 0x38<<26 | op<<18 | (m&7)<<12 | (m>>3&1)<<16 | 0x10
			for _, vd := range []uint32{20, 254} {
				cases = append(cases, []uint32{w0, 10 | vd<<8 | 2<<16 | (m>>4)<<23 | 30<<24})
			}
		}
		for seg := uint32(0); seg < 3; seg++ {
			for m := uint32(0); m < 8; m++ {
				w0 := 0x37<<26 | op<<18 | seg<<14 | (m&1)<<16 | (m>>1&1)<<13 | 0x10
				for _, sa := range []uint32{0x7f, 6, 0x7e} {
					cases = append(cases, []uint32{w0, 10 | 20<<8 | sa<<16 | (m>>2)<<23 | 40<<24})
				}
			}
		}
	}
	compareLLVM(t, "sweep", cases)
}
