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
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
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
		if strings.ContainsAny(l, "\n;") {
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
