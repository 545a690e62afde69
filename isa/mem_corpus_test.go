package isa_test

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
	"github.com/wavedbg/wavedbg/loader"
)

var (
	memCorpus    = flag.Int("mem.corpus", 3, "code objects per processor and library in TestMemCorpus (0: all)")
	memCorpusAll = flag.Bool("mem.corpus.all", false, "compare every encoding in TestMemCorpus, not only the memory ones")
)

// corpusLibs are the third-party libraries whose device code the corpus
// test disassembles.
var corpusLibs = []string{
	"/usr/lib/x86_64-linux-gnu/librocsparse.so.0.1",
	"/usr/lib/x86_64-linux-gnu/librocrand.so.1.1",
}

var memEncs = map[isa.Encoding]bool{isa.EncDS: true, isa.EncMUBUF: true, isa.EncMTBUF: true,
	isa.EncMIMG: true, isa.EncEXP: true, isa.EncFLAT: true}

// TestMemCorpus disassembles real code objects (gfx803, gfx900 and gfx906
// from librocsparse0 and librocrand1, and our own compiled kernels under
// */testdata) with llvm-objdump-19 and checks that
// every memory instruction LLVM prints decodes to the same text and
// length. It needs WAVEDBG_CORPUS=1 (it is slow); -mem.corpus bounds the
// code objects taken per processor and library.
func TestMemCorpus(t *testing.T) {
	if os.Getenv("WAVEDBG_CORPUS") == "" {
		t.Skip("set WAVEDBG_CORPUS=1 to run the real-code corpus comparison")
	}
	if !llvmdis.Available() {
		t.Skip("LLVM 19 tools missing")
	}
	type count struct{ ok, all int }
	counts := map[string]*count{}
	bad := 0
	dir := t.TempDir()
	ours, _ := filepath.Glob(filepath.Join("..", "*", "testdata", "*", "*", "*.co"))
	more, _ := filepath.Glob(filepath.Join("..", "*", "testdata", "*.co"))
	for _, lib := range append(append(corpusLibs[:len(corpusLibs):len(corpusLibs)], ours...), more...) {
		if _, err := os.Stat(lib); err != nil {
			t.Logf("skip %s: %v", lib, err)
			continue
		}
		c, err := loader.OpenContainer(lib)
		if err != nil {
			t.Fatal(err)
		}
		taken := map[string]int{}
		for i := range c.Entries {
			e := &c.Entries[i]
			proc := e.Processor()
			if !e.IsAMDGPU() || proc != "gfx803" && proc != "gfx900" && proc != "gfx906" {
				continue
			}
			if *memCorpus > 0 && taken[proc] >= *memCorpus {
				continue
			}
			taken[proc]++
			tg, _ := isa.TargetOf(proc)
			path := filepath.Join(dir, fmt.Sprintf("co%d.o", i))
			b, err := io.ReadAll(e.Reader())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(llvmdis.Objdump, "-d", "--mcpu="+proc, path)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(out)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				text, words, ok := objdumpLine(sc.Text())
				if !ok {
					continue
				}
				enc := isa.EncodingOf(words[0], tg)
				if !*memCorpusAll && !memEncs[enc] {
					continue
				}
				key := proc + " " + enc.String()
				if counts[key] == nil {
					counts[key] = &count{}
				}
				counts[key].all++
				buf := make([]byte, 4*len(words))
				for k, w := range words {
					buf[4*k], buf[4*k+1], buf[4*k+2], buf[4*k+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
				}
				inst, err := isa.Decode(buf, tg)
				got := inst.String()
				if err != nil {
					got = "<invalid>"
				}
				if got == text && inst.Len == len(buf) {
					counts[key].ok++
					continue
				}
				bad++
				if bad <= 30 {
					t.Errorf("%s %s %08X: got %q (%d bytes), LLVM %q (%d bytes)", lib, proc, words, got, inst.Len, text, len(buf))
				}
			}
			if err := cmd.Wait(); err != nil {
				t.Fatal(err)
			}
		}
		c.Close()
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("corpus %-14s %d/%d agree", k, counts[k].ok, counts[k].all)
	}
}

// objdumpLine splits an instruction line of llvm-objdump -d output into its
// text and words.
func objdumpLine(line string) (string, []uint32, bool) {
	if !strings.HasPrefix(line, "\t") {
		return "", nil, false
	}
	i := strings.LastIndex(line, "// ")
	if i < 0 {
		return "", nil, false
	}
	c := line[i+3:]
	j := strings.IndexByte(c, ':')
	if j < 0 {
		return "", nil, false
	}
	var words []uint32
	for _, f := range strings.Fields(c[j+1:]) {
		w, err := strconv.ParseUint(f, 16, 32)
		if err != nil {
			return "", nil, false
		}
		words = append(words, uint32(w))
	}
	text := strings.TrimRight(line[1:i], " ")
	if len(words) == 0 || strings.HasPrefix(text, ".long") {
		return "", nil, false
	}
	return text, words, true
}
