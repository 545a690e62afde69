package asm

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
)

// sample is one samples/*/*.s with its committed llvm-mc/ld.lld build.
type sample struct {
	name, src, co string
	target        string // gfx900, or TARGET of a NAME.TARGET.s variant
}

func samples(t testing.TB) []sample {
	t.Helper()
	srcs, err := filepath.Glob("../../samples/*/*.s")
	if err != nil || len(srcs) == 0 {
		t.Fatalf("no samples/*/*.s: %v", err)
	}
	var out []sample
	for _, s := range srcs {
		base := strings.TrimSuffix(strings.TrimSuffix(s, ".s"), ".cl")
		target := "gfx900"
		if _, t, ok := strings.Cut(filepath.Base(base), "."); ok && strings.HasPrefix(t, "gfx") {
			target = t // NAME.TARGET.s, as build.sh reads it
		}
		out = append(out, sample{name: filepath.Base(s), src: s, co: base + ".co", target: target})
	}
	return out
}

// assembleSample builds a sample as samples/build.sh does: its target
// (gfx900 unless the file is NAME.TARGET.s), code object v4.
func assembleSample(t testing.TB, s sample) []byte {
	t.Helper()
	src, err := os.ReadFile(s.src)
	if err != nil {
		t.Fatal(err)
	}
	co, err := Assemble(s.src, src, Options{Target: s.target, CodeObjectVersion: 4})
	if err != nil {
		t.Fatalf("%s: %v", s.name, err)
	}
	return co
}

// TestSamplesMatchCommittedBuild: every sample's .s assembles to a code
// object whose allocated sections (.text, the kernel descriptors in
// .rodata, the metadata note, the dynamic symbols and tables) have the
// bytes and addresses of the committed build, and whose header matches.
func TestSamplesMatchCommittedBuild(t *testing.T) {
	for _, s := range samples(t) {
		t.Run(s.name, func(t *testing.T) {
			ours := assembleSample(t, s)
			theirs, err := os.ReadFile(s.co)
			if err != nil {
				t.Fatal(err)
			}
			of, err := elf.NewFile(bytes.NewReader(ours))
			if err != nil {
				t.Fatal(err)
			}
			tf, err := elf.NewFile(bytes.NewReader(theirs))
			if err != nil {
				t.Fatal(err)
			}
			if of.FileHeader != tf.FileHeader {
				t.Errorf("header %+v, want %+v", of.FileHeader, tf.FileHeader)
			}
			for _, want := range tf.Sections {
				if want.Flags&elf.SHF_ALLOC == 0 {
					continue
				}
				got := of.Section(want.Name)
				if got == nil {
					t.Errorf("no section %s", want.Name)
					continue
				}
				if got.SectionHeader != want.SectionHeader {
					t.Errorf("%s: header %+v, want %+v", want.Name, got.SectionHeader, want.SectionHeader)
				}
				gb, _ := got.Data()
				wb, _ := want.Data()
				if !bytes.Equal(gb, wb) {
					t.Errorf("%s differs:\n ours %x\n want %x", want.Name, gb, wb)
				}
			}
			if len(of.Progs) != len(tf.Progs) {
				t.Fatalf("%d program headers, want %d", len(of.Progs), len(tf.Progs))
			}
			for i := range tf.Progs {
				if of.Progs[i].ProgHeader != tf.Progs[i].ProgHeader {
					t.Errorf("program header %d: %+v, want %+v", i, of.Progs[i].ProgHeader, tf.Progs[i].ProgHeader)
				}
			}
		})
	}
}

// TestLoaderReadsSamples: our loader opens what we write, with the
// kernels and metadata of the committed build.
func TestLoaderReadsSamples(t *testing.T) {
	for _, s := range samples(t) {
		co := assembleSample(t, s)
		ours, err := loader.NewCodeObject(bytes.NewReader(co), int64(len(co)))
		if err != nil {
			t.Errorf("%s: loader: %v", s.name, err)
			continue
		}
		theirs, err := loader.Load(s.co, loader.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ours.Kernels) != len(theirs.Kernels) || ours.Version != theirs.Version || ours.Target != theirs.Target {
			t.Errorf("%s: %d kernels v%d %v, want %d v%d %v", s.name, len(ours.Kernels), ours.Version, ours.Target,
				len(theirs.Kernels), theirs.Version, theirs.Target)
		}
		theirs.Close()
	}
}

// TestLLVMToolsReadOurCodeObjects: llvm-readelf-19 reads our code objects
// without a warning and llvm-objdump-19 disassembles them exactly as the
// committed builds. Without the tools (and CI unset), the code objects'
// SHA-256 must equal testdata/samples.sha256, the bytes last checked
// live; -asm.update rewrites it.
func TestLLVMToolsReadOurCodeObjects(t *testing.T) {
	readelf, objdump := oracle(t, "llvm-readelf-19"), oracle(t, "llvm-objdump-19")
	golden := readGolden(t, "testdata/samples.sha256")
	got := map[string]string{}
	dir := t.TempDir()
	for _, s := range samples(t) {
		co := assembleSample(t, s)
		sum := sha256.Sum256(co)
		got[s.name] = hex.EncodeToString(sum[:])
		if readelf == "" {
			if got[s.name] != golden[s.name] {
				t.Errorf("%s: sha256 %s, want %s (testdata/samples.sha256)", s.name, got[s.name], golden[s.name])
			}
			continue
		}
		path := filepath.Join(dir, strings.TrimSuffix(s.name, ".s")+".co")
		if err := os.WriteFile(path, co, 0o644); err != nil {
			t.Fatal(err)
		}
		out, stderr, err := run(t, nil, readelf, "-a", "-W", "--notes", path)
		if err != nil || stderr != "" || strings.Contains(out, "warning") {
			t.Errorf("%s: llvm-readelf-19: %v\n%s", s.name, err, stderr)
		}
		ours, stderr, err := run(t, nil, objdump, "-d", path)
		if err != nil || stderr != "" {
			t.Errorf("%s: llvm-objdump-19: %v\n%s", s.name, err, stderr)
		}
		theirs, _, err := run(t, nil, objdump, "-d", s.co)
		if err != nil {
			t.Fatal(err)
		}
		if body(ours) != body(theirs) {
			t.Errorf("%s: llvm-objdump-19 -d differs:\n%s\nwant\n%s", s.name, body(ours), body(theirs))
		}
		if !*update && got[s.name] != golden[s.name] {
			t.Errorf("%s: sha256 %s, testdata/samples.sha256 has %s (run with -asm.update)", s.name, got[s.name], golden[s.name])
		}
	}
	if *update {
		writeGolden(t, "testdata/samples.sha256", got)
	}
}

// body drops objdump's first lines, which name the file.
func body(s string) string {
	if i := strings.Index(s, "Disassembly of section"); i >= 0 {
		return s[i:]
	}
	return s
}
