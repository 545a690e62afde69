package isa

// The assembler against llvm-mc-19 -show-encoding. testdata/asm/llvm.txt
// records llvm-mc's answer for every text of the golden corpora whose
// round trip is not the identity, so the tests run without LLVM;
// -isa.update-asm rewrites it (needs llvm-mc-19).

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
	"github.com/wavedbg/wavedbg/loader"
)

var updateAsm = flag.Bool("isa.update-asm", false, "rewrite testdata/asm/llvm.txt from llvm-mc-19")

const asmGoldenFile = "testdata/asm/llvm.txt"

// mcResult is llvm-mc's reading of one line: its words, or its error.
type mcResult struct {
	words []uint32
	col   int
	msg   string // "" when accepted
}

func (r mcResult) String() string {
	if r.msg != "" {
		return fmt.Sprintf("!%d: %s", r.col, r.msg)
	}
	return hexWords(r.words)
}

var (
	mcEncoding = regexp.MustCompile(`; encoding: \[([^\]]*)\]`)
	mcError    = regexp.MustCompile(`^<stdin>:(\d+):(\d+): error: (.*)$`)
)

// llvmMC assembles each line (one instruction each) with llvm-mc-19 for cpu.
func llvmMC(cpu string, lines []string) ([]mcResult, error) {
	var in bytes.Buffer
	for _, l := range lines {
		if strings.ContainsAny(l, "\n") {
			return nil, fmt.Errorf("llvmMC: line %q", l)
		}
		in.WriteString(l)
		in.WriteByte('\n')
	}
	cmd := exec.Command(llvmdis.MC, "-triple=amdgcn-amd-amdhsa", "-mcpu="+cpu, "-show-encoding")
	cmd.Stdin = &in
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		return nil, err
	}
	res := make([]mcResult, len(lines))
	failed := map[int]bool{}
	sc := bufio.NewScanner(&errb)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := mcError.FindStringSubmatch(sc.Text()); m != nil {
			n, _ := strconv.Atoi(m[1])
			c, _ := strconv.Atoi(m[2])
			if !failed[n-1] && n-1 < len(res) {
				failed[n-1] = true
				res[n-1] = mcResult{col: c, msg: m[3]}
			}
		}
	}
	i := 0
	sc = bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := mcEncoding.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		for i < len(res) && failed[i] {
			i++
		}
		if i == len(res) {
			return nil, fmt.Errorf("llvmMC: more encodings than lines")
		}
		var bs []byte
		for _, h := range strings.Split(m[1], ",") {
			v, err := strconv.ParseUint(strings.TrimSpace(h), 0, 8)
			if err != nil {
				return nil, fmt.Errorf("llvmMC: %q: %v", m[1], err)
			}
			bs = append(bs, byte(v))
		}
		for k := 0; k+4 <= len(bs); k += 4 {
			res[i].words = append(res[i].words, uint32(bs[k])|uint32(bs[k+1])<<8|uint32(bs[k+2])<<16|uint32(bs[k+3])<<24)
		}
		i++
	}
	return res, nil
}

// asmCase is one text to assemble and what llvm-mc-19 makes of it.
type asmCase struct {
	cpu, text string
	want      mcResult
}

// readAsmGolden reads testdata/asm/llvm.txt: CPU<tab>TEXT<tab>WORDS or !COL: MSG.
func readAsmGolden(t testing.TB) map[string]mcResult {
	m := map[string]mcResult{}
	b, err := os.ReadFile(asmGoldenFile)
	if err != nil {
		if os.IsNotExist(err) {
			return m
		}
		t.Fatal(err)
	}
	for n, l := range strings.Split(string(b), "\n") {
		if l == "" || l[0] == '#' {
			continue
		}
		p := strings.SplitN(l, "\t", 3)
		if len(p) != 3 {
			t.Fatalf("%s:%d: want CPU<tab>TEXT<tab>RESULT", asmGoldenFile, n+1)
		}
		m[p[0]+"\t"+p[1]] = parseMCResult(p[2])
	}
	return m
}

func parseMCResult(s string) mcResult {
	if e, ok := strings.CutPrefix(s, "!"); ok {
		c, msg, _ := strings.Cut(e, ": ")
		col, _ := strconv.Atoi(c)
		return mcResult{col: col, msg: msg}
	}
	var r mcResult
	for _, h := range strings.Fields(s) {
		v, _ := strconv.ParseUint(h, 16, 32)
		r.words = append(r.words, uint32(v))
	}
	return r
}

// writeAsmGolden asks llvm-mc about every case and records those whose
// answer is not the original words.
func writeAsmGolden(t *testing.T, cases []asmCase) {
	needLLVM(t)
	byCPU := map[string][]int{}
	for i, c := range cases {
		byCPU[c.cpu] = append(byCPU[c.cpu], i)
	}
	var lines []string
	for cpu, idx := range byCPU {
		texts := make([]string, len(idx))
		for k, i := range idx {
			texts[k] = cases[i].text
		}
		res, err := llvmMC(cpu, texts)
		if err != nil {
			t.Fatal(err)
		}
		for k, i := range idx {
			if res[k].String() != cases[i].want.String() {
				lines = append(lines, cpu+"\t"+cases[i].text+"\t"+res[k].String())
			}
		}
	}
	sort.Strings(lines)
	head := "# llvm-mc-19 -show-encoding's answer for the golden corpora's texts whose round trip differs.\n" +
		"# CPU<tab>TEXT<tab>WORDS or !COL: ERROR. Regenerate: go test ./isa -run TestAssembleGolden -isa.update-asm\n"
	if err := os.MkdirAll("testdata/asm", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(asmGoldenFile, []byte(head+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d cases", asmGoldenFile, len(lines))
}

// corpusCode is the .text of one real code object and its processor.
type corpusCode struct {
	name, cpu string
	text      []byte
}

// corpusCodes returns our own code objects (always) and, when present,
// the gfx803/gfx900/gfx906 code objects of Debian's librocsparse and
// librocrand (required under CI=true); outside the long tier only the two
// smallest of each library and processor.
func corpusCodes(t testing.TB) []corpusCode {
	var out []corpusCode
	add := func(name, cpu string, e *loader.BundleEntry) {
		f, err := e.Open()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sec := f.Section(".text"); sec != nil {
			b, err := sec.Data()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, corpusCode{name, cpu, b})
		}
	}
	own, _ := filepath.Glob(filepath.Join("..", "*", "testdata", "*", "*", "*.co"))
	more, _ := filepath.Glob(filepath.Join("..", "*", "testdata", "*.co"))
	for _, path := range append(own, more...) {
		c, err := loader.OpenContainer(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i := range c.Entries {
			e := &c.Entries[i]
			if _, ok := TargetOf(e.Processor()); ok && e.IsAMDGPU() {
				add(path, e.Processor(), e)
			}
		}
		c.Close()
	}
	for _, lib := range corpusLibs {
		if _, err := os.Stat(lib); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s: %v (install librocsparse0 librocrand1)", lib, err)
			}
			t.Logf("%s: %v; skipped", lib, err)
			continue
		}
		c, err := loader.OpenContainer(lib)
		if err != nil {
			t.Fatal(err)
		}
		for _, cpu := range []string{"gfx803", "gfx900", "gfx906"} {
			var es []*loader.BundleEntry
			for i := range c.Entries {
				if e := &c.Entries[i]; e.IsAMDGPU() && e.Processor() == cpu {
					es = append(es, e)
				}
			}
			sort.Slice(es, func(i, j int) bool { return es[i].Size < es[j].Size })
			if !long() && os.Getenv("CI") != "true" && len(es) > 2 { // CI: every code object
				es = es[:2]
			}
			for _, e := range es {
				add(lib+"["+e.ID+"]", cpu, e)
			}
		}
		c.Close()
	}
	return out
}

// TestAssembleCorpus disassembles every instruction of the real code
// objects and assembles the text again: the words must be the original
// ones, or what llvm-mc-19 gives for that text (recorded in
// testdata/asm/llvm.txt for our own kernels, asked live for the rest).
func TestAssembleCorpus(t *testing.T) {
	gold := readAsmGolden(t)
	var odd []asmCase // texts whose words differ from the original
	total := 0
	var inst Inst
	var buf []byte
	for _, cc := range corpusCodes(t) {
		tg, _ := TargetOf(cc.cpu)
		feat := FeaturesOf(cc.cpu)
		for off := 0; off < len(cc.text); off += inst.Len {
			if err := DecodeWith(cc.text[off:], tg, feat, &inst); err != nil {
				continue
			}
			total++
			buf = inst.AppendText(buf[:0], 0, nil)
			text := string(buf)
			got, err := Assemble(nil, text, tg, feat, nil)
			want := mcResult{words: inst.Words[:inst.Len/4]}
			if r, ok := gold[cc.cpu+"\t"+text]; ok {
				want = r
			}
			if (err != nil) == (want.msg != "") && (err != nil || hexWords(got) == hexWords(want.words)) {
				continue
			}
			c := asmCase{cpu: cc.cpu, text: text, want: mcResult{words: got}}
			if err != nil {
				c.want = mcResult{msg: err.Error()}
			}
			odd = append(odd, c)
		}
	}
	t.Logf("%d instructions, %d whose assembly is not the original words", total, len(odd))
	if len(odd) == 0 {
		return
	}
	if *updateAsm {
		addAsmGolden(t, odd)
		return
	}
	if !llvmdis.Available() {
		needLLVM(t)
		for _, c := range odd[:min(len(odd), asmShow)] {
			t.Errorf("%s: %q: ours %s differs from the original words; llvm-mc-19 is needed to judge", c.cpu, c.text, c.want)
		}
		return
	}
	cases := llvmAnswers(t, odd)
	if n := checkAsm(t, "corpus vs llvm-mc-19", cases); n == 0 {
		t.Logf("%d texts where LLVM's own round trip differs too", len(cases))
	}
}

// llvmAnswers returns the distinct cases with llvm-mc-19's answers as want,
// one llvm-mc run per processor.
func llvmAnswers(t *testing.T, cases []asmCase) []asmCase {
	byCPU := map[string][]string{}
	seen := map[string]bool{}
	for _, c := range cases {
		if k := c.cpu + "\t" + c.text; !seen[k] {
			seen[k] = true
			byCPU[c.cpu] = append(byCPU[c.cpu], c.text)
		}
	}
	var out []asmCase
	for cpu, texts := range byCPU {
		res, err := llvmMC(cpu, texts)
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range texts {
			out = append(out, asmCase{cpu: cpu, text: text, want: res[i]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cpu+out[i].text < out[j].cpu+out[j].text })
	return out
}

// addAsmGolden records llvm-mc-19's answers for more cases in
// testdata/asm/llvm.txt.
func addAsmGolden(t *testing.T, cases []asmCase) {
	needLLVM(t)
	gold := readAsmGolden(t)
	b, err := os.ReadFile(asmGoldenFile)
	if err != nil {
		t.Fatal(err)
	}
	var fresh []asmCase
	for _, c := range cases {
		if _, ok := gold[c.cpu+"\t"+c.text]; !ok {
			fresh = append(fresh, c)
		}
	}
	var more []string
	for _, c := range llvmAnswers(t, fresh) {
		more = append(more, c.cpu+"\t"+c.text+"\t"+c.want.String())
	}
	sort.Strings(more)
	out := string(b) + strings.Join(more, "\n")
	if len(more) > 0 {
		out += "\n"
	}
	if err := os.WriteFile(asmGoldenFile, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("added %d cases to %s", len(more), asmGoldenFile)
}

// TestAssembleLLVMRandom is the random-word harness run through the
// assembler: for seeded random words of every encoding that decode (as
// they do for LLVM, TestLLVMRandom), the text must assemble to exactly
// what llvm-mc-19 gives for it, or be rejected where llvm-mc rejects it.
// -isa.n sets the words per processor (default 20,000; 200,000 in the
// long tier), -isa.enc the encodings.
func TestAssembleLLVMRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	needLLVM(t)
	n := *nFlag
	if n == 0 {
		n = 20000
		if long() {
			n = 200000
		}
	}
	encs := allEncodings
	if *encFlag != "" {
		encs = nil
		for _, name := range strings.Split(*encFlag, ",") {
			for _, e := range allEncodings {
				if e.String() == name {
					encs = append(encs, e)
				}
			}
		}
	}
	for _, cpu := range strings.Split(*cpusFlag, ",") {
		tg, _ := TargetOf(cpu)
		feat := FeaturesOf(cpu)
		r := rand.New(rand.NewPCG(*seedFlag^0xa5a5, uint64(tg)|uint64(feat)<<8))
		seen := map[string]bool{}
		var cases []asmCase
		var inst Inst
		for i := 0; i < n; i++ {
			e := encs[r.IntN(len(encs))]
			ws := []uint32{encPrefix(e, r.Uint32(), r), r.Uint32(), r.Uint32()}
			if DecodeWith(wordBytes(ws), tg, feat, &inst) != nil {
				continue
			}
			if text := inst.String(); !seen[text] {
				seen[text] = true
				cases = append(cases, asmCase{cpu: cpu, text: text})
			}
		}
		checkAsm(t, cpu+" random words", llvmAnswers(t, cases))
	}
}
