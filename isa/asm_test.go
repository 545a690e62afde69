package isa

import (
	"bufio"
	"fmt"
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
				if shown < 30 {
					shown++
					t.Errorf("%s %s: %q: got %s; llvm-mc rejects it: %s", title, c.cpu, c.text, hexWords(got), c.want)
				}
			} else if e := err.(*AsmError); e.Msg != c.want.msg {
				msgs++
			}
			continue
		}
		if err == nil && hexWords(got) == hexWords(c.want.words) {
			continue
		}
		n++
		bad[EncodingOf(c.want.words[0], tg)]++
		if shown < 30 {
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

var _ = fmt.Sprint
