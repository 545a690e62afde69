package isa

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
)

var updateGolden = flag.Bool("isa.update-golden", false, "regenerate testdata/decode.txt from LLVM 19")

const goldenFile = "testdata/decode.txt"

// goldenCase is one line of testdata/decode.txt or testdata/valu.txt: a
// processor, the instruction's words (all of them, literal included) and
// LLVM 19's text.
type goldenCase struct {
	cpu   string
	words []uint32
	text  string
}

// readGolden reads a CPU<tab>WORDS<tab>TEXT corpus.
func readGolden(t testing.TB, path string) []goldenCase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []goldenCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		p := strings.SplitN(line, "\t", 3)
		if len(p) != 3 {
			t.Fatalf("%s:%d: want CPU<tab>WORDS<tab>TEXT", path, n)
		}
		c := goldenCase{cpu: p[0], text: p[2]}
		for _, h := range strings.Fields(p[1]) {
			v, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, n, err)
			}
			c.words = append(c.words, uint32(v))
		}
		cs = append(cs, c)
	}
	return cs
}

func wordBytes(ws []uint32) []byte {
	b := make([]byte, 0, 4*len(ws))
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

// TestGolden decodes every line of testdata/decode.txt and compares the
// text and the length with LLVM 19's, recorded there. It needs no LLVM.
func TestGolden(t *testing.T) {
	if *updateGolden {
		writeGolden(t)
	}
	cs := readGolden(t, goldenFile)
	bad := 0
	for _, c := range cs {
		tg, ok := TargetOf(c.cpu)
		if !ok {
			t.Fatalf("bad cpu %q", c.cpu)
		}
		inst, err := Decode(wordBytes(c.words), tg)
		have, n := "<invalid>", len(c.words)
		if err == nil {
			have, n = inst.String(), inst.Len/4
		}
		if have != c.text || (err == nil && n != len(c.words)) {
			if bad++; bad <= 20 {
				t.Errorf("%s %08X: have %q (%d words), want %q (%d words)", c.cpu, c.words, have, n, c.text, len(c.words))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d golden cases differ", bad, len(cs))
	}
	t.Logf("%d golden cases", len(cs))
}

// writeGolden regenerates the corpus with LLVM: for each target, every
// scalar opcode with representative fields, and seeded random words of
// every encoding. Cases of encodings whose decoder still disagrees with
// LLVM are left out (TestLLVMRandom reports those), so the file only holds
// LLVM's text.
func writeGolden(t *testing.T) {
	needLLVM(t)
	var b strings.Builder
	b.WriteString("# Golden decode corpus: CPU<tab>WORDS<tab>LLVM 19 text. Invalid words say <invalid>.\n")
	b.WriteString("# Regenerate: go test ./isa -run TestGolden -isa.update-golden (needs llvm-mc-19, llvm-objdump-19)\n")
	for _, cpu := range []string{"gfx803", "gfx900"} {
		tg, _ := TargetOf(cpu)
		var cases [][]uint32
		// Every opcode row with fields 8/20/40 and with constants/literals.
		for i := range forms {
			f := &forms[i]
			if lookupForm(tg, f.Enc, f.Opcode) != f {
				continue
			}
			for _, w := range representative(f) {
				cases = append(cases, w)
			}
		}
		r := rand.New(rand.NewPCG(7, uint64(tg)))
		for _, e := range allEncodings {
			for i := 0; i < 300; i++ {
				cases = append(cases, []uint32{encPrefix(e, r.Uint32(), r), r.Uint32(), r.Uint32()})
			}
		}
		res, err := llvmdis.Disasm(cpu, cases)
		if err != nil {
			t.Fatal(err)
		}
		writeGoldenLines(&b, cpu, cases, res, func(c []uint32, text string) bool {
			inst, err := Decode(wordBytes(c), tg)
			ours := "<invalid>"
			if err == nil {
				ours = inst.String()
			}
			return ours == text || isScalar(EncodingOf(c[0], tg))
		})
	}
	if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeGoldenLines writes a corpus line for each case LLVM did not crash
// on and keep accepts (nil: all), each distinct line once: the words LLVM
// took (one for an invalid word) and its text.
func writeGoldenLines(b *strings.Builder, cpu string, cases [][]uint32, res []llvmdis.Result, keep func(c []uint32, text string) bool) {
	seen := map[string]bool{}
	for i, c := range cases {
		x := res[i]
		if x.Crashed {
			continue
		}
		text, words := x.Text, c[:max(x.Words, 1)]
		if x.Invalid {
			text, words = "<invalid>", c[:1]
		}
		if keep != nil && !keep(c, text) {
			continue
		}
		line := fmt.Sprintf("%s\t%s\t%s\n", cpu, hexWords(words), text)
		if !seen[line] {
			seen[line] = true
			b.WriteString(line)
		}
	}
}

func isScalar(e Encoding) bool {
	switch e {
	case EncSOP2, EncSOPK, EncSOP1, EncSOPC, EncSOPP, EncSMEM:
		return true
	}
	return false
}

func hexWords(ws []uint32) string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = fmt.Sprintf("%08X", w)
	}
	return strings.Join(s, " ")
}

// representative returns a few encodings of a scalar form: plain registers,
// then inline constants and a literal in its sources.
func representative(f *Form) [][]uint32 {
	op := uint32(f.Opcode)
	const lit = 0x12345678
	switch f.Enc {
	case EncSOP2:
		return [][]uint32{{0x80000000 | op<<23 | 8<<16 | 40<<8 | 20}, {0x80000000 | op<<23 | 8<<16 | 0xff<<8 | 0xc1, lit},
			{0x80000000 | op<<23 | 106<<16 | 0xf2<<8 | 0x7e}}
	case EncSOPK:
		return [][]uint32{{0xb0000000 | op<<23 | 8<<16 | 0x1234, lit}, {0xb0000000 | op<<23 | 8<<16 | 0xf801, lit}}
	case EncSOP1:
		return [][]uint32{{0xbe800000 | 8<<16 | op<<8 | 20}, {0xbe800000 | 8<<16 | op<<8 | 0xff, lit}, {0xbe800000 | 126<<16 | op<<8 | 0xf8}}
	case EncSOPC:
		return [][]uint32{{0xbf000000 | op<<16 | 40<<8 | 20}, {0xbf000000 | op<<16 | 0xff<<8 | 0x80, lit}}
	case EncSOPP:
		return [][]uint32{{0xbf800000 | op<<16}, {0xbf800000 | op<<16 | 0x1234}, {0xbf800000 | op<<16 | 0xc07f}, {0xbf800000 | op<<16 | 0x22}}
	case EncSMEM:
		return [][]uint32{{0xc0000000 | op<<18 | 1<<17 | 8<<6 | 10, 0x10}, {0xc0000000 | op<<18 | 8<<6 | 10, 0x4},
			{0xc0000000 | op<<18 | 1<<17 | 1<<16 | 1<<14 | 8<<6 | 10, 0x0a000010}}
	}
	return nil
}

// FuzzDecode checks that any byte string decodes or reports an error
// without panicking, deterministically, never consuming more bytes than it
// has, and that a decoded instruction prints.
func FuzzDecode(f *testing.F) {
	for _, c := range readGolden(f, goldenFile) {
		f.Add(wordBytes(c.words), c.cpu == "gfx900")
	}
	f.Add([]byte{0xff, 0x00, 0x80, 0xbe, 0x78}, true) // literal cut off
	f.Fuzz(func(t *testing.T, b []byte, gfx9 bool) {
		tg := GFX8
		if gfx9 {
			tg = GFX9
		}
		a, err1 := Decode(b, tg)
		c, err2 := Decode(b, tg)
		if err1 != err2 || a.Len != c.Len || a.String() != c.String() {
			t.Fatalf("not deterministic: %v/%v %q/%q", err1, err2, a.String(), c.String())
		}
		if err1 == nil {
			if a.Len > len(b) || a.Len < 4 || a.Len%4 != 0 {
				t.Fatalf("Len %d of %d bytes", a.Len, len(b))
			}
			if s := a.String(); s == "" || strings.Contains(s, "<invalid>") {
				t.Fatalf("decoded instruction prints %q", s)
			}
		}
	})
}

// TestTruncatedLiteral checks that a literal cut off by the end of the
// input is an error, not a guess.
func TestTruncatedLiteral(t *testing.T) {
	for _, b := range [][]byte{
		{0xff, 0x00, 0x80, 0xbe},             // s_mov_b32 s0, <literal>
		{0xff, 0x00, 0x80, 0xbe, 0x78, 0x56}, // half a literal
		{0x00, 0x01, 0x06, 0xc0},             // SMEM without its second word
	} {
		if _, err := Decode(b, GFX9); err != ErrTruncated {
			t.Errorf("% x: err %v, want ErrTruncated", b, err)
		}
	}
}

func TestTargetOf(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Target
		ok   bool
	}{
		{"gfx900", GFX9, true}, {"gfx906:xnack-", GFX9, true}, {"amdgcn-amd-amdhsa--gfx803", GFX8, true},
		{"gfx90c", GFX9, true}, {"gfx810", GFX8, true}, {"gfx1030", TargetUnknown, false}, {"gfx90a", TargetUnknown, false},
	} {
		if got, ok := TargetOf(c.in); got != c.want || ok != c.ok {
			t.Errorf("TargetOf(%q) = %v, %v", c.in, got, ok)
		}
	}
}

// TestDecodedForm checks the facts a decoded instruction carries.
func TestDecodedForm(t *testing.T) {
	inst, err := Decode(wordBytes([]uint32{0xc0060100, 0}), GFX9) // s_load_dwordx2 s[4:5], s[0:1], 0x0
	if err != nil {
		t.Fatal(err)
	}
	if inst.Op != S_LOAD_DWORDX2 || inst.Op.Info().Class != ClassSMEM || inst.Op.Info().Raises != CntLGKM ||
		!inst.Op.Info().Flags.Has(FlagLoad) || len(inst.Args) != 3 {
		t.Fatalf("%+v", inst)
	}
	if a := inst.Args[0]; a.Kind != KindSGPR || a.Reg != 4 || a.Width != 2 || a.Access != Write || a.Field != FieldSDATA {
		t.Errorf("sdata %+v", a)
	}
	if a := inst.Args[1]; a.Kind != KindSGPR || a.Reg != 0 || a.Width != 2 || a.Access != Read {
		t.Errorf("sbase %+v", a)
	}
	br, _ := Decode(wordBytes([]uint32{0xbf85fffc}), GFX9) // s_cbranch_scc1 65532
	if tgt, ok := br.BranchTarget(0x1554); !ok || tgt != 0x1548 || br.Op.Info().Class != ClassBranch {
		t.Errorf("branch target %#x %v", tgt, ok)
	}
}

func TestFormat(t *testing.T) {
	br, err := Decode(wordBytes([]uint32{0xbf820009}), GFX9) // s_branch 9
	if err != nil {
		t.Fatal(err)
	}
	sym := func(addr uint64) (string, bool) { return fmt.Sprintf("second+0x%x", addr-0x1340), addr >= 0x1340 }
	if got := br.Format(0x1318, sym); got != "s_branch 9 <second+0x0>" {
		t.Errorf("Format = %q", got)
	}
	if got := br.Format(0x1318, nil); got != "s_branch 9 <0x1340>" {
		t.Errorf("Format without symbols = %q", got)
	}
}

// TestFeatureRowsFollowAnalogs checks that the gfx904/gfx906 rows of
// tables/gfx9x.txt still copy their gfx900 analogs in valu.txt; when this
// fails, rerun go run ./isa/internal/harvest gfx9x and the generator.
func TestFeatureRowsFollowAnalogs(t *testing.T) {
	analog := map[[2]uint16]uint16{
		{uint16(EncVOP3P), 0x20}: 0x20, {uint16(EncVOP3P), 0x21}: 0x21, {uint16(EncVOP3P), 0x22}: 0x22,
		{uint16(EncVOP2), 0x3b}: 0x16, {uint16(EncVOP3), 0x13b}: 0x116,
		{uint16(EncVOP2), 0x3d}: 0x15, {uint16(EncVOP3), 0x13d}: 0x115,
	}
	for _, ff := range featureForms {
		from, ok := analog[[2]uint16{uint16(ff.enc), ff.opcode}]
		if !ok {
			continue
		}
		f, base := &forms[ff.form], lookupForm(GFX9, ff.enc, from)
		if base == nil {
			t.Fatalf("%s: no gfx900 analog %#x", f.Mnemonic, from)
		}
		if fmt.Sprint(f.Operands) != fmt.Sprint(base.Operands) || f.Flags != base.Flags {
			t.Errorf("%s differs from its analog %s: %v %v / %v %v", f.Mnemonic, base.Mnemonic, f.Operands, f.Flags, base.Operands, base.Flags)
		}
	}
}
