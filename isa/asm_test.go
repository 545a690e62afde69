package isa

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// readMemGolden reads testdata/mem.txt: TARGET WORDS: TEXT.
func readMemGolden(t testing.TB) []goldenCase {
	f, err := os.Open("testdata/mem.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []goldenCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		head, text, ok := strings.Cut(l, ": ")
		if !ok {
			continue
		}
		p := strings.Fields(head)
		c := goldenCase{cpu: p[0], text: text}
		for _, h := range p[1:] {
			v, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				t.Fatalf("testdata/mem.txt: %q: %v", l, err)
			}
			c.words = append(c.words, uint32(v))
		}
		cs = append(cs, c)
	}
	return cs
}

// goldenAsmCases returns, for every valid instruction of the decoder's
// golden corpora, our text of it and its words.
func goldenAsmCases(t testing.TB) []asmCase {
	var all []goldenCase
	for _, f := range []string{"testdata/decode.txt", "testdata/valu.txt"} {
		all = append(all, readGolden(t, f)...)
	}
	all = append(all, readMemGolden(t)...)
	seen := map[string]bool{}
	var cs []asmCase
	var inst Inst
	for _, g := range all {
		if g.text == "<invalid>" {
			continue
		}
		tg, _ := TargetOf(g.cpu)
		if err := DecodeWith(wordBytes(g.words), tg, FeaturesOf(g.cpu), &inst); err != nil {
			continue
		}
		c := asmCase{cpu: g.cpu, text: inst.String(), want: mcResult{words: g.words[:inst.Len/4]}}
		if k := c.cpu + "\t" + c.text; !seen[k] {
			seen[k] = true
			cs = append(cs, c)
		}
	}
	return cs
}

// checkAsm assembles each case and compares with its expected result;
// it returns the number of disagreements.
func checkAsm(t *testing.T, title string, cases []asmCase) int {
	bad := map[Encoding]int{}
	shown, n, msgs := 0, 0, 0
	for _, c := range cases {
		tg, _ := TargetOf(c.cpu)
		got, err := Assemble(nil, c.text, tg, FeaturesOf(c.cpu), nil)
		if c.want.msg != "" {
			if err == nil {
				n++
				if shown < asmShow {
					shown++
					t.Errorf("%s %s: %q: got %s; llvm-mc rejects it: %s", title, c.cpu, c.text, hexWords(got), c.want)
				}
			} else if e := err.(*AsmError); e.Msg != c.want.msg || e.Col != c.want.col {
				msgs++
				if msgs <= msgShow {
					t.Logf("%s %s: %q: our error %d: %s; llvm-mc's %s", title, c.cpu, c.text, e.Col, e.Msg, c.want)
				}
			}
			continue
		}
		if err == nil && hexWords(got) == hexWords(c.want.words) {
			continue
		}
		n++
		bad[EncodingOf(c.want.words[0], tg)]++
		if shown < asmShow {
			shown++
			t.Errorf("%s %s: %q: got %s, %v; want %s", title, c.cpu, c.text, hexWords(got), err, c.want)
		}
	}
	t.Logf("%s: %d texts, %d disagreements %v, %d rejected with another message", title, len(cases), n, bad, msgs)
	return n
}

// TestAssembleGolden assembles the text of every valid word of the
// decoder's golden corpora and expects the original words, or what
// llvm-mc-19 gives for that text (testdata/asm/llvm.txt) where LLVM's own
// round trip differs.
func TestAssembleGolden(t *testing.T) {
	cases := goldenAsmCases(t)
	if *updateAsm {
		writeAsmGolden(t, cases)
	}
	gold := readAsmGolden(t)
	for i := range cases {
		if r, ok := gold[cases[i].cpu+"\t"+cases[i].text]; ok {
			cases[i].want = r
		}
	}
	checkAsm(t, "golden", cases)
}

// msgShow is how many differing error messages a test logs (ISA_ASM_MSGS).
var msgShow = func() int {
	n, _ := strconv.Atoi(os.Getenv("ISA_ASM_MSGS"))
	return n
}()

// asmShow is how many disagreements a test prints (ISA_ASM_SHOW overrides).
var asmShow = func() int {
	if n, err := strconv.Atoi(os.Getenv("ISA_ASM_SHOW")); err == nil {
		return n
	}
	return 30
}()

// TestAssembleLabels resolves branch labels and symbols through AsmEnv:
// a branch's simm16 is the target's word offset from PC+4.
func TestAssembleLabels(t *testing.T) {
	syms := map[string]int64{"loop": 0x100, "done": 0x204, "far": 0x100 + 4 + 4*32768, "odd": 0x102, "N": 100}
	env := &AsmEnv{PC: 0x100, Symbol: func(n string) (int64, bool) { v, ok := syms[n]; return v, ok }}
	for _, c := range []struct {
		text string
		want []uint32
		err  string
	}{
		{"s_branch loop", []uint32{0xbf82ffff}, ""},
		{"s_cbranch_scc0 done", []uint32{0xbf840040}, ""},
		{"s_cbranch_execnz loop", []uint32{0xbf89ffff}, ""},
		{"s_branch 3", []uint32{0xbf820003}, ""},
		{"s_movk_i32 s0, N", []uint32{0xb0000064}, ""},
		{"v_mov_b32 v0, N", []uint32{0x7e0002ff, 100}, ""},
		{"s_movk_i32 s0, N*2+1", []uint32{0xb00000c9}, ""},
		{"s_movk_i32 s0, done-loop", []uint32{0xb0000104}, ""},
		{"s_movk_i32 s0, (1<<4)+~0", []uint32{0xb000000f}, ""},
		{"v_mov_b32 v0, -N", []uint32{0x7e0002ff, 0xffffff9c}, ""},
		{"s_branch loop+4", []uint32{0xbf820000}, ""},
		{"s_branch done - 4", []uint32{0xbf82003f}, ""},
		{"s_movk_i32 s0, N/0", nil, "19: division by zero"},
		{"s_movk_i32 s0, " + strings.Repeat("(", 100) + "1", nil, "80: expression too deeply nested"},
		{"s_movk_i32 s0, N+nope", nil, "18: undefined symbol nope"},
		{"s_branch nowhere", nil, "10: undefined label nowhere"},
		{"s_branch far", nil, "10: branch target out of range: far"},
		{"s_branch odd", nil, "10: branch target out of range: odd"},
	} {
		got, err := Assemble(nil, c.text, GFX9, 0, env)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: got %08X, %v; want error %q", c.text, got, err, c.err)
			}
			continue
		}
		if err != nil || hexWords(got) != hexWords(c.want) {
			t.Errorf("%q: got %08X, %v; want %08X", c.text, got, err, c.want)
		}
	}
}

// TestAssembleDotLabel reads an operand starting with a dot and a letter
// or _ as a symbol (s_branch .LBB0_1), as llvm-mc does, and one with a dot
// and a digit as a float (.5).
func TestAssembleDotLabel(t *testing.T) {
	syms := map[string]int64{".Lloop": 0x100, ".LBB0_1": 0x204, "._x": 0x108, ".Lend": 0x110}
	env := &AsmEnv{PC: 0x100, Symbol: func(n string) (int64, bool) { v, ok := syms[n]; return v, ok }}
	for _, c := range []struct {
		text string
		want []uint32
		err  string
	}{
		{"s_branch .Lloop", []uint32{0xbf82ffff}, ""},
		{"s_cbranch_scc1 .LBB0_1", []uint32{0xbf850040}, ""},
		{"s_branch ._x", []uint32{0xbf820001}, ""},
		{"s_branch .Lloop+8", []uint32{0xbf820001}, ""},
		{"s_movk_i32 s0, .Lend-.Lloop", []uint32{0xb0000010}, ""},
		{"s_movk_i32 s0, -.Lloop", []uint32{0xb000ff00}, ""},
		{"v_mov_b32 v0, .5", []uint32{0x7e0002f0}, ""},
		{"v_add_f32 v0, -.5, v1", []uint32{0x020002f1}, ""},
		{"s_branch .Lnowhere", nil, "10: undefined label .Lnowhere"},
		{"s_movk_i32 s0, .Lend+.Lnope", nil, "22: undefined symbol .Lnope"},
	} {
		got, err := Assemble(nil, c.text, GFX9, 0, env)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: got %08X, %v; want error %q", c.text, got, err, c.err)
			}
			continue
		}
		if err != nil || hexWords(got) != hexWords(c.want) {
			t.Errorf("%q: got %08X, %v; want %08X", c.text, got, err, c.want)
		}
	}
}

// TestAssembleExprGNUPrecedence evaluates operand expressions with
// llvm-mc's GNU precedence, not C's: << >> bind like *, and & ^ bind
// tighter than + -. The values are llvm-mc-19's.
func TestAssembleExprGNUPrecedence(t *testing.T) {
	for _, c := range []struct {
		expr string
		want int64
	}{
		{"1<<2+1", 5},
		{"2+3<<1", 8},
		{"6&3+1", 3},
		{"6^3+1", 6},
		{"5^3&1", 0},
		{"7&6^3", 5},
		{"1+2*3-4%3", 6},
		{"1 - 2 + 3", 2},
		{"64>>2*2", 32},
	} {
		text := "s_movk_i32 s0, " + c.expr
		got, err := Assemble(nil, text, GFX9, 0, nil)
		if want := []uint32{0xb0000000 | uint32(c.want)&0xffff}; err != nil || hexWords(got) != hexWords(want) {
			t.Errorf("%q: got %08X, %v; want %08X", text, got, err, want)
		}
	}
}

// TestAssembleAppends checks that Assemble appends to dst and leaves it
// unchanged on error.
func TestAssembleAppends(t *testing.T) {
	dst := []uint32{1, 2}
	dst, err := Assemble(dst, "s_mov_b32 s0, 0x12345678", GFX9, 0, nil)
	if err != nil || hexWords(dst) != "00000001 00000002 BE8000FF 12345678" {
		t.Fatalf("got %08X, %v", dst, err)
	}
	dst, err = Assemble(dst, "s_mov_b32 s0, v0", GFX9, 0, nil)
	if err == nil || len(dst) != 4 {
		t.Fatalf("got %08X, %v; want an error and dst unchanged", dst, err)
	}
	if _, err := Assemble(nil, "s_nop 0", TargetUnknown, 0, nil); err == nil {
		t.Fatal("unknown target accepted")
	}
	if _, err := Assemble(nil, "  ", GFX9, 0, nil); err == nil || err.Error() != "3: expected an instruction" {
		t.Fatalf("blank line: %v", err)
	}
}

// FuzzAssemble feeds arbitrary text to Assemble: it must never panic, and
// what it accepts must decode back to an instruction of the same length
// whose printed text, when it assembles again, reaches a fixpoint after one
// round: the first may normalise the words (bits the text does not show, as
// in s_waitcnt -1 on GFX8, are dropped, and ds_swizzle's BITMASK_PERM
// "11111" becomes BROADCAST, as with llvm-mc). Some printed texts do not
// assemble, for LLVM either (an i16 operand's 0.5 prints as 0x3800, a
// literal VOP3 refuses).
func FuzzAssemble(f *testing.F) {
	for _, s := range []string{"s_add_u32 s0, s1, 0x1234", "v_add_f32_e64 v0, -|v1|, s2 clamp mul:2",
		"v_mov_b32_sdwa v0, v1 dst_sel:BYTE_0 src0_sel:WORD_1", "v_mov_b32_dpp v0, v1 quad_perm:[3,2,1,0] row_mask:0xa",
		"buffer_load_dword v1, v2, s[4:7], 0 offen offset:4 glc", "s_waitcnt vmcnt(0) lgkmcnt(0)",
		"image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf", "exp mrt0 v0, v0, v1, v1 done compr",
		"ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,\"01pip\")", "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)",
		"v_pk_add_f16 v0, v1, v2 op_sel:[1,0] neg_hi:[0,1]", "global_load_dword v1, v2, s[4:5] offset:-16"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, gfx9 bool) {
		tg := GFX8
		if gfx9 {
			tg = GFX9
		}
		ws, err := Assemble(nil, text, tg, 0, &AsmEnv{Symbol: func(string) (int64, bool) { return 8, true }})
		if err != nil {
			if _, ok := err.(*AsmError); !ok {
				t.Fatalf("%q: error of type %T", text, err)
			}
			return
		}
		inst, derr := Decode(wordBytes(ws), tg)
		if derr != nil || inst.Len != 4*len(ws) {
			t.Fatalf("%q: assembled %08X, which decodes as %v (%d bytes)", text, ws, derr, inst.Len)
		}
		for round := 0; round < 2; round++ {
			printed := inst.String()
			again, err := Assemble(nil, printed, tg, 0, nil)
			if err != nil {
				return
			}
			if round == 1 && hexWords(again) != hexWords(ws) {
				t.Fatalf("%q: %08X prints %q, which assembles to %08X", text, ws, printed, again)
			}
			ws = again
			inst, _ = Decode(wordBytes(ws), tg)
		}
	})
}

// BenchmarkAssemble assembles the text of the largest real listing
// available (librocsparse's gfx906 code objects when installed, else the
// golden corpora); see asm_bench.sh for the comparison with llvm-mc-19.
func BenchmarkAssemble(b *testing.B) {
	lines, cpu := benchListing(b)
	tg, _ := TargetOf(cpu)
	feat := FeaturesOf(cpu)
	b.ReportAllocs()
	b.ResetTimer()
	var dst []uint32
	rejected := 0
	for i := 0; i < b.N; i++ {
		dst, rejected = dst[:0], 0
		for _, l := range lines {
			var err error
			if dst, err = Assemble(dst, l, tg, feat, nil); err != nil {
				rejected++ // as llvm-mc-19 rejects them too (TestAssembleCorpus)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/inst")
	b.ReportMetric(float64(rejected), "rejected")
}

// benchListing returns the instruction texts of the largest listing: the
// file named by ISA_ASM_LISTING (one instruction a line, as asm_bench.sh
// writes it; its first line is the processor), else our golden corpora.
func benchListing(b *testing.B) ([]string, string) {
	if p := os.Getenv("ISA_ASM_LISTING"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		ls := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		return ls[1:], strings.TrimPrefix(ls[0], "// ")
	}
	var lines []string
	for _, c := range goldenAsmCases(b) {
		if c.cpu == "gfx900" && c.want.msg == "" {
			if _, err := Assemble(nil, c.text, GFX9, 0, nil); err == nil {
				lines = append(lines, c.text)
			}
		}
	}
	return lines, "gfx900"
}
