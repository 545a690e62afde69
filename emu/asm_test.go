package emu

import (
	"bufio"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// Golden instruction words: testdata/asm.txt holds one line per
// instruction, "mcpu<TAB>assembly<TAB>hex bytes", produced by
// llvm-mc-19 -triple=amdgcn -mcpu=MCPU -show-encoding. Tests assemble
// through it, so they run without LLVM; a missing line is assembled with
// llvm-mc-19 when it is installed (go test -update writes it back), the
// test is skipped when it is not, and it fails under CI=true.

var update = flag.Bool("update", false, "write newly assembled instructions to testdata/asm.txt")

var (
	goldenMu  sync.Mutex
	golden    map[string][]byte
	goldenNew bool
)

const goldenPath = "testdata/asm.txt"

func loadGolden() {
	if golden != nil {
		return
	}
	golden = map[string][]byte{}
	f, err := os.Open(goldenPath)
	if err != nil {
		return
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		p := strings.Split(s.Text(), "\t")
		if len(p) != 3 {
			continue
		}
		b, err := hex.DecodeString(strings.ReplaceAll(p[2], " ", ""))
		if err == nil {
			golden[p[0]+"\t"+p[1]] = b
		}
	}
}

// needLLVMMC skips t when llvm-mc-19 is missing, and fails it under
// CI=true, where the oracle must be installed.
func needLLVMMC(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("llvm-mc-19"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("llvm-mc-19 is required under CI=true")
		}
		t.Skip("llvm-mc-19 is not installed")
	}
}

var encRE = regexp.MustCompile(`encoding: \[([^\]]*)\]`)

func llvmAssemble(mcpu, line string) ([]byte, error) {
	cmd := exec.Command("llvm-mc-19", "-triple=amdgcn", "-mcpu="+mcpu, "-show-encoding")
	cmd.Stdin = strings.NewReader(line + "\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("llvm-mc-19: %v: %s", err, out)
	}
	m := encRE.FindSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("llvm-mc-19 gave no encoding for %q: %s", line, out)
	}
	var b []byte
	for _, x := range strings.Split(string(m[1]), ",") {
		var v byte
		if _, err := fmt.Sscanf(strings.TrimSpace(x), "0x%x", &v); err != nil {
			return nil, err
		}
		b = append(b, v)
	}
	return b, nil
}

// asmBytes returns the words of each line for mcpu.
func asmBytes(t testing.TB, mcpu string, lines ...string) []byte {
	t.Helper()
	goldenMu.Lock()
	defer goldenMu.Unlock()
	loadGolden()
	var text []byte
	for _, l := range lines {
		b, ok := golden[mcpu+"\t"+l]
		if !ok {
			if _, err := exec.LookPath("llvm-mc-19"); err != nil {
				if os.Getenv("CI") == "true" {
					t.Fatalf("%s: %q is not in %s and llvm-mc-19 is missing", mcpu, l, goldenPath)
				}
				t.Skipf("%q is not in %s and llvm-mc-19 is missing", l, goldenPath)
			}
			var err error
			if b, err = llvmAssemble(mcpu, l); err != nil {
				t.Fatal(err)
			}
			golden[mcpu+"\t"+l] = b
			goldenNew = true
			if !*update {
				t.Errorf("%s %q is not in %s (run go test -update with llvm-mc-19)", mcpu, l, goldenPath)
			}
		}
		text = append(text, b...)
	}
	return text
}

// asmProgram assembles lines for gfx900 (or gfx803 when t is GFX8) and
// decodes them into a program at base 0.
func asmProgram(t testing.TB, target isa.Target, lines ...string) *Program {
	t.Helper()
	mcpu := "gfx900"
	if target == isa.GFX8 {
		mcpu = "gfx803"
	}
	p := DecodeProgramWith(target, isa.FeaturesOf(mcpu), 0, asmBytes(t, mcpu, lines...))
	for i := range p.Code {
		if p.Code[i].Fn == nil {
			t.Fatalf("instruction %d not compiled", i)
		}
	}
	return p
}

func asmMachine(t testing.TB, lines ...string) *Machine {
	t.Helper()
	return NewMachine(asmProgram(t, isa.GFX9, lines...), core.NewMemory(), core.DefaultConfig(isa.GFX9))
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if *update && goldenNew {
		var keys []string
		for k := range golden {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var sb strings.Builder
		sb.WriteString("# mcpu<TAB>assembly<TAB>bytes — from llvm-mc-19 -triple=amdgcn -show-encoding; go test ./emu -args -update adds lines\n")
		for _, k := range keys {
			fmt.Fprintf(&sb, "%s\t%s\n", k, hex.EncodeToString(golden[k]))
		}
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(goldenPath, []byte(sb.String()), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}
