package isa

import (
	"os"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
)

const asmSyntaxFile = "testdata/asm/syntax.txt"

// knownAsmMessage lists rejected lines whose message differs from
// llvm-mc-19's: on GFX8, LLVM names GFX9-only SDWA forms "operands are
// not valid for this GPU or mode" or "not a valid operand." depending on
// which of its matcher tables failed last; we give the generic message.
var knownAsmMessage = map[string]bool{
	"gfx803\tv_add_u32_sdwa v0, v1, v2 src0_sel:BYTE_0":                        true,
	"gfx803\tv_add_f32_sdwa v0, v1, v2 mul:2":                                  true,
	"gfx803\tv_cmp_eq_f32_sdwa s[2:3], v1, v2 src0_sel:WORD_1 src1_sel:BYTE_0": true,
	// Garbage LLVM's expression parser reads further into.
	"gfx900\ts_mov_b32 s0, 1.2.3": true,
	"gfx900\ts_mov_b32 s0, @":     true,
}

// TestAssembleSyntax checks hand-written lines (every operand kind and
// modifier, symbolic forms, LLVM's choice of encoding, and bad inputs)
// against llvm-mc-19's answers recorded in testdata/asm/syntax.txt:
// accepted lines must give the same words, rejected ones the same error
// message at the same column. With LLVM installed the answers are checked
// live too; -isa.update-asm rewrites them.
func TestAssembleSyntax(t *testing.T) {
	b, err := os.ReadFile(asmSyntaxFile)
	if err != nil {
		t.Fatal(err)
	}
	var cases []asmCase
	for n, l := range strings.Split(string(b), "\n") {
		if l == "" || l[0] == '#' {
			continue
		}
		p := strings.SplitN(l, "\t", 3)
		if len(p) < 2 {
			t.Fatalf("%s:%d: want CPU<tab>TEXT<tab>RESULT", asmSyntaxFile, n+1)
		}
		c := asmCase{cpu: p[0], text: p[1]}
		if len(p) == 3 {
			c.want = parseMCResult(p[2])
		}
		cases = append(cases, c)
	}
	if os.Getenv("CI") == "true" {
		needLLVM(t) // the live comparison is required in CI
	}
	if *updateAsm || llvmdis.Available() {
		live := map[string]mcResult{}
		for _, c := range llvmAnswers(t, cases) {
			live[c.cpu+"\t"+c.text] = c.want
		}
		var out []string
		for i := range cases {
			c := &cases[i]
			r := live[c.cpu+"\t"+c.text]
			if !*updateAsm && r.String() != c.want.String() {
				t.Errorf("%s %q: recorded %s, llvm-mc-19 now says %s", c.cpu, c.text, c.want, r)
			}
			c.want = r
			out = append(out, c.cpu+"\t"+c.text+"\t"+r.String())
		}
		if *updateAsm {
			head := "# Hand-written lines and llvm-mc-19's answers: CPU<tab>TEXT<tab>WORDS or !COL: ERROR.\n" +
				"# Add lines (CPU<tab>TEXT) and regenerate: go test ./isa -run TestAssembleSyntax -isa.update-asm\n"
			if err := os.WriteFile(asmSyntaxFile, []byte(head+strings.Join(out, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	bad := 0
	for _, c := range cases {
		tg, _ := TargetOf(c.cpu)
		got, err := Assemble(nil, c.text, tg, FeaturesOf(c.cpu), nil)
		ours := mcResult{words: got}
		if err != nil {
			e := err.(*AsmError)
			ours = mcResult{col: e.Col, msg: e.Msg}
		}
		if ours.String() != c.want.String() && !(ours.msg != "" && c.want.msg != "" && knownAsmMessage[c.cpu+"\t"+c.text]) {
			bad++
			t.Errorf("%s %q: ours %s, llvm-mc-19 %s", c.cpu, c.text, ours, c.want)
		}
	}
	t.Logf("%d lines, %d differ from llvm-mc-19", len(cases), bad)
}
