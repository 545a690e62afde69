package isa

// Differential tests against LLVM 19 (llvm-mc + llvm-objdump). They skip
// when LLVM is missing, and fail then when CI=true.
//
//	go test ./isa -run LLVM                    50,000 seeded random words per target
//	go test ./isa -run LLVM -long              1,000,000 per target (or ISA_LONG=1)
//	go test ./isa -run LLVMRandom -isa.enc=sop1,smem -isa.n=20000 -v
//	go test ./isa -run LLVMCorpus -v           every instruction of librocsparse/librocrand gfx803/gfx900/gfx906

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
	"github.com/wavedbg/wavedbg/loader"
)

var (
	longFlag = flag.Bool("long", false, "run the long LLVM sweeps (1M random words per target)")
	encFlag  = flag.String("isa.enc", "", "comma-separated encodings for TestLLVMRandom (default all)")
	nFlag    = flag.Int("isa.n", 0, "random words per target for TestLLVMRandom")
	seedFlag = flag.Uint64("isa.seed", 1, "seed for TestLLVMRandom")
	showFlag = flag.Int("isa.show", 10, "disagreements to print per encoding")
	cpusFlag = flag.String("isa.cpus", "gfx803,gfx900,gfx906", "processors for TestLLVMRandom (gfx906 and others beyond the first two get a fifth of the words)")
)

// long reports whether the long tier runs: with -long, ISA_LONG=1, or
// always in CI, where every live comparison must run.
func long() bool {
	return *longFlag || os.Getenv("ISA_LONG") != "" || os.Getenv("CI") == "true"
}

// needLLVM skips the test without LLVM 19, or fails it under CI=true.
func needLLVM(t testing.TB) {
	t.Helper()
	if llvmdis.Available() {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("LLVM 19 (llvm-mc-19, llvm-objdump-19) is required under CI=true")
	}
	t.Skip("LLVM 19 not installed")
}

// knownDifference explains a disagreement with LLVM that we keep on
// purpose, or returns "". Entries are gated on the LLVM version they were
// checked with, so moving the reference re-examines each of them.
//
// LLVM 19: none. Where LLVM 19 prints oddities we print them too (operands
// outside their register class carry LLVM's "/*Invalid register, operand
// has 'SReg_32' register class*/" or "/*Invalid immediate*/" remarks; a
// misaligned SGPR tuple drops its low bits; src_shared_base and friends
// decode on GFX8), because the text must be identical. Words on which
// llvm-objdump-19 itself crashes are counted apart ("ENC!" in the reports)
// and not compared. LLVM 14 differs from 19 on random words (it accepts
// GFX10-only image_*_g16 on gfx900, older hwreg names); it is not the
// reference.
func knownDifference(t Target, words []uint32, ours, theirs string) string {
	switch llvmdis.Version {
	case 19:
		return ""
	}
	return ""
}

// encPrefix forces word w into encoding e's prefix bits.
func encPrefix(e Encoding, w uint32, r *rand.Rand) uint32 {
	switch e {
	case EncSOP2:
		return 0x80000000 | uint32(r.IntN(0x60))<<23 | w&0x7fffff
	case EncSOPK:
		return 0xb0000000 | uint32(r.IntN(0x1d))<<23 | w&0x7fffff
	case EncSOP1:
		return 0xbe800000 | w&0x7fffff
	case EncSOPC:
		return 0xbf000000 | w&0x7fffff
	case EncSOPP:
		if r.IntN(4) == 0 {
			w &^= 0xffff // operandless SOPP opcodes take simm16 = 0 only
		}
		return 0xbf800000 | w&0x7fffff
	case EncSMEM:
		return 0xc0000000 | w&0x3ffffff
	case EncEXP:
		return 0xc4000000 | w&0x3ffffff
	case EncVOP3:
		return 0xd0000000 | w&0x3ffffff
	case EncVOP3P:
		return 0xd3800000 | w&0x7fffff
	case EncVINTRP:
		return 0xd4000000 | w&0x3ffffff
	case EncDS:
		return 0xd8000000 | w&0x3ffffff
	case EncFLAT:
		return 0xdc000000 | w&0x3ffffff
	case EncMUBUF:
		return 0xe0000000 | w&0x3ffffff
	case EncMTBUF:
		return 0xe8000000 | w&0x3ffffff
	case EncMIMG:
		return 0xf0000000 | w&0x3ffffff
	case EncVOP1:
		return 0x7e000000 | w&0x1ffffff
	case EncVOPC:
		return 0x7c000000 | w&0x1ffffff
	case EncVOP2:
		return uint32(r.IntN(0x3e))<<25 | w&0x1ffffff
	}
	// Unused prefixes.
	un := [...]uint32{0xc8000000, 0xcc000000, 0xe4000000, 0xec000000, 0xf4000000, 0xf8000000, 0xfc000000}
	return un[r.IntN(len(un))] | w&0x3ffffff
}

var allEncodings = []Encoding{EncSOP2, EncSOPK, EncSOP1, EncSOPC, EncSOPP, EncSMEM, EncVOP1, EncVOP2,
	EncVOPC, EncVOP3, EncVOP3P, EncVINTRP, EncDS, EncMUBUF, EncMTBUF, EncMIMG, EncEXP, EncFLAT, EncUnknown}

// tally counts agreement per encoding.
type tally struct {
	agree, differ, known map[string]int
	shown                map[string]int
	lines                []string
}

func newTally() *tally {
	return &tally{agree: map[string]int{}, differ: map[string]int{}, known: map[string]int{}, shown: map[string]int{}}
}

// compare decodes words for generation t with features feat, checks the
// text and length against LLVM's result and records the outcome under name.
func (ty *tally) compare(t Target, feat Features, name string, words []uint32, res llvmdis.Result) bool {
	var inst Inst
	err := DecodeWith(wordBytes(words), t, feat, &inst)
	ours, n := "<invalid>", 0
	if err == nil {
		ours, n = inst.String(), inst.Len/4
	}
	theirs := res.Text
	if res.Invalid {
		theirs = "<invalid>"
	}
	if res.Crashed {
		ty.known[name+"!"]++ // llvm-objdump crashed on this word; nothing to compare
		if ty.shown[name+"!"] < *showFlag {
			ty.shown[name+"!"]++
			ty.lines = append(ty.lines, fmt.Sprintf("%s %-6s %08X: llvm-objdump-%d crashed on it alone; ours: %s",
				t, name, words, llvmdis.Version, ours))
		}
		return true
	}
	if ours == theirs && (res.Invalid || n == res.Words) {
		ty.agree[name]++
		return true
	}
	if why := knownDifference(t, words, ours, theirs); why != "" {
		ty.known[name]++
		return true
	}
	ty.differ[name]++
	if ty.shown[name] < *showFlag {
		ty.shown[name]++
		var hex []string
		for _, w := range words[:max(n, res.Words, 1)] {
			hex = append(hex, fmt.Sprintf("%08X", w))
		}
		ty.lines = append(ty.lines, fmt.Sprintf("%s %-6s %s\n\tours: %s (%d words)\n\tllvm: %s (%d words)",
			t, name, strings.Join(hex, " "), ours, n, theirs, res.Words))
	}
	return false
}

// check logs the counts under title and the differences shown, and fails
// the test when any case disagrees with LLVM.
func (ty *tally) check(t *testing.T, title string) {
	t.Helper()
	ty.report(t, title)
	n := 0
	for _, v := range ty.differ {
		n += v
	}
	if n > 0 {
		t.Errorf("%s: %d disagreements with LLVM", title, n)
	}
}

// report logs the counts per name under title, then the differences shown.
func (ty *tally) report(t *testing.T, title string) {
	var names []string
	seen := map[string]bool{}
	for _, m := range []map[string]int{ty.agree, ty.differ, ty.known} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				names = append(names, k)
			}
		}
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%-8s %10s %10s %8s\n", title, "encoding", "agree", "differ", "known")
	for _, n := range names {
		fmt.Fprintf(&b, "%-8s %10d %10d %8d\n", n, ty.agree[n], ty.differ[n], ty.known[n])
	}
	t.Log(b.String())
	for _, l := range ty.lines {
		t.Log(l)
	}
}

// TestLLVMRandom compares seeded random words of every encoding with LLVM.
func TestLLVMRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	needLLVM(t)
	n := *nFlag
	if n == 0 {
		n = 50000
		if long() {
			n = 1000000
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
		tg, ok := TargetOf(cpu)
		if !ok {
			t.Fatalf("-isa.cpus: %q is not GFX8 or GFX9", cpu)
		}
		feat := FeaturesOf(cpu)
		r := rand.New(rand.NewPCG(*seedFlag, uint64(tg)|uint64(feat)<<8))
		ty := newTally()
		const batch = 100000
		n := n
		if cpu != "gfx803" && cpu != "gfx900" {
			n /= 5 // the others differ from gfx803/gfx900 only in a few opcodes
		}
		for done := 0; done < n; done += batch {
			m := min(batch, n-done)
			cases := make([][]uint32, m)
			for i := range cases {
				e := encs[r.IntN(len(encs))]
				cases[i] = []uint32{encPrefix(e, r.Uint32(), r), r.Uint32(), r.Uint32()}
			}
			res, err := llvmdis.Disasm(cpu, cases)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range cases {
				ty.compare(tg, feat, EncodingOf(c[0], tg).String(), c, res[i])
			}
		}
		ty.check(t, fmt.Sprintf("%s: %d random words vs llvm-objdump-%d", cpu, n, llvmdis.Version))
	}
}

// corpusLibs hold real ROCm device code (Debian's librocsparse0 and librocrand1).
var corpusLibs = []string{
	"/usr/lib/x86_64-linux-gnu/librocsparse.so.0",
	"/usr/lib/x86_64-linux-gnu/librocrand.so.1",
}

// TestLLVMCorpus compares every instruction llvm-objdump-19 prints for the
// gfx803, gfx900 and gfx906 code objects of librocsparse and librocrand,
// and for every code object of our own under */testdata, with ours at the
// same address. Outside the long tier it takes the two smallest real code
// objects per library and processor.
func TestLLVMCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	needLLVM(t)
	ty := newTally()
	total := 0
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
			if !long() && len(es) > 2 {
				es = es[:2]
			}
			for _, e := range es {
				total += corpusEntry(t, ty, cpu, e)
			}
		}
		c.Close()
	}
	// Our own compiled kernels, whatever gfx8/gfx9 processor each was built for.
	own, _ := filepath.Glob(filepath.Join("..", "*", "testdata", "*", "*", "*.co"))
	more, _ := filepath.Glob(filepath.Join("..", "*", "testdata", "*.co"))
	for _, path := range append(own, more...) {
		c, err := loader.OpenContainer(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i := range c.Entries {
			e := &c.Entries[i]
			if tg, ok := TargetOf(e.Processor()); ok && e.IsAMDGPU() && (tg == GFX8 || tg == GFX9) {
				total += corpusEntry(t, ty, e.Processor(), e)
			}
		}
		c.Close()
	}
	ty.check(t, fmt.Sprintf("real code objects: %d instructions vs llvm-objdump-%d", total, llvmdis.Version))
}

// corpusEntry disassembles one code object with llvm-objdump and compares
// each line; it returns the number of instructions.
func corpusEntry(t *testing.T, ty *tally, cpu string, e *loader.BundleEntry) int {
	f, err := e.Open()
	if err != nil {
		t.Fatalf("%s: %v", e.ID, err)
	}
	sec := f.Section(".text")
	if sec == nil {
		return 0
	}
	text, err := sec.Data()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(e.Reader())
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(t.TempDir(), "co")
	if err := os.WriteFile(tmp, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(llvmdis.Objdump, "-d", "--mcpu="+cpu, tmp)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tg, _ := TargetOf(cpu)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		txt, addr, words, ok := llvmdis.ParseLine(sc.Text())
		if !ok || addr < sec.Addr || addr-sec.Addr >= uint64(len(text)) {
			continue
		}
		off := int(addr - sec.Addr)
		n++
		res := llvmdis.Result{Text: txt, Words: words}
		if strings.HasPrefix(txt, ".long ") {
			res = llvmdis.Result{Invalid: true}
		}
		ws := make([]uint32, 0, 3)
		for k := off; k+4 <= len(text) && len(ws) < 3; k += 4 {
			ws = append(ws, binary.LittleEndian.Uint32(text[k:]))
		}
		ty.compare(tg, FeaturesOf(cpu), EncodingOf(ws[0], tg).String(), ws, res)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s: %v", e.ID, err)
	}
	return n
}

// TestLLVMSimm16 sweeps every simm16 of the opcodes whose immediate has a
// symbolic form (s_waitcnt, s_sendmsg, s_getreg/s_setreg hwreg,
// s_set_gpr_idx_mode) and of a branch, on both targets. It runs with -long.
func TestLLVMSimm16(t *testing.T) {
	if !long() && *encFlag != "simm16" {
		t.Skip("-long (or -isa.enc=simm16)")
	}
	needLLVM(t)
	words := []uint32{0xbf8c0000, 0xbf900000, 0xbf910000, 0xb8800000 | 5<<16, 0xb9000000 | 5<<16, 0xbf9d0000, 0xbf820000}
	for _, cpu := range []string{"gfx803", "gfx900"} {
		tg, _ := TargetOf(cpu)
		ty := newTally()
		var cases [][]uint32
		for _, w := range words {
			for v := uint32(0); v < 1<<16; v++ {
				cases = append(cases, []uint32{w | v})
			}
		}
		res, err := llvmdis.Disasm(cpu, cases)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			ty.compare(tg, 0, lookupName(tg, c[0]), c, res[i])
		}
		ty.check(t, cpu+": every simm16")
	}
}

// lookupName names the opcode of a scalar word for reports.
func lookupName(t Target, w uint32) string {
	inst, err := Decode(wordBytes([]uint32{w}), t)
	if err != nil || inst.Form == nil {
		return EncodingOf(w, t).String()
	}
	return inst.Form.Mnemonic
}
