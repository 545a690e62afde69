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
)

// linkCases are testdata/link/*.s with the llvm-mc-19 flags for their
// target.
var linkCases = map[string][]string{
	"multi.s": {"-mcpu=gfx900"},
	"data.s":  {"-mcpu=gfx906", "-mattr=+sramecc,-xnack"},
	// clang-15 -g -S output: the DWARF sections are skipped, the rest
	// is the code object llvm-mc and ld.lld make.
	"vector_add_g.s": {"-mcpu=gfx900"},
}

// TestLinkMatchesLLD: files beyond the samples (several kernels, code
// object v5, gfx906 with sramecc+ and xnack-, data directives, absolute
// symbols) give the ELF header, program headers, allocated sections and
// symbols that llvm-mc-19 and ld.lld-15 -shared give. Without the tools
// (CI unset) our code objects' SHA-256 must equal testdata/link.sha256.
func TestLinkMatchesLLD(t *testing.T) {
	mc, lld := oracle(t, "llvm-mc-19"), oracle(t, "ld.lld-15")
	golden := readGolden(t, "testdata/link.sha256")
	got := map[string]string{}
	dir := t.TempDir()
	for name, flags := range linkCases {
		path := filepath.Join("testdata/link", name)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := Assemble(path, src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sum := sha256.Sum256(ours)
		got[name] = hex.EncodeToString(sum[:])
		if mc == "" || lld == "" {
			if got[name] != golden[name] {
				t.Errorf("%s: sha256 %s, want %s (testdata/link.sha256)", name, got[name], golden[name])
			}
			continue
		}
		obj, co := filepath.Join(dir, name+".o"), filepath.Join(dir, name+".co")
		args := append([]string{"-triple=amdgcn-amd-amdhsa", "-filetype=obj", path, "-o", obj}, flags...)
		if _, stderr, err := run(t, nil, mc, args...); err != nil {
			t.Fatalf("llvm-mc-19 %s: %v\n%s", name, err, stderr)
		}
		if _, stderr, err := run(t, nil, lld, "-shared", obj, "-o", co); err != nil {
			t.Fatalf("ld.lld-15 %s: %v\n%s", name, err, stderr)
		}
		theirs, err := os.ReadFile(co)
		if err != nil {
			t.Fatal(err)
		}
		compareLinked(t, name, ours, theirs)
		if !*update && got[name] != golden[name] {
			t.Errorf("%s: sha256 %s, testdata/link.sha256 has %s (run with -asm.update)", name, got[name], golden[name])
		}
	}
	if *update {
		writeGolden(t, "testdata/link.sha256", got)
	}
}

// compareLinked compares what a loader reads of two code objects: the
// headers, the allocated sections and the symbols (ld.lld's .comment and
// the section header table's place aside).
func compareLinked(t *testing.T, name string, ours, theirs []byte) {
	t.Helper()
	of, err := elf.NewFile(bytes.NewReader(ours))
	if err != nil {
		t.Fatal(err)
	}
	tf, err := elf.NewFile(bytes.NewReader(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if of.FileHeader != tf.FileHeader {
		t.Errorf("%s: header %+v, want %+v", name, of.FileHeader, tf.FileHeader)
	}
	for _, want := range tf.Sections {
		if want.Flags&elf.SHF_ALLOC == 0 {
			continue
		}
		g := of.Section(want.Name)
		if g == nil {
			t.Errorf("%s: no section %s", name, want.Name)
			continue
		}
		gb, _ := g.Data()
		wb, _ := want.Data()
		if g.SectionHeader != want.SectionHeader || !bytes.Equal(gb, wb) {
			t.Errorf("%s: %s differs:\n ours %+v %x\n want %+v %x", name, want.Name, g.SectionHeader, gb, want.SectionHeader, wb)
		}
	}
	for i := range tf.Progs {
		if i >= len(of.Progs) || of.Progs[i].ProgHeader != tf.Progs[i].ProgHeader {
			t.Errorf("%s: program header %d differs", name, i)
		}
	}
	os, _ := of.Symbols()
	ts, _ := tf.Symbols()
	var a, b []string
	for _, s := range os {
		a = append(a, strings.TrimSpace(strings.ReplaceAll(fmtSym(s), "  ", " ")))
	}
	for _, s := range ts {
		b = append(b, strings.TrimSpace(strings.ReplaceAll(fmtSym(s), "  ", " ")))
	}
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("%s: symbols\n%s\nwant\n%s", name, strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

func fmtSym(s elf.Symbol) string {
	return s.Name + " " + hex.EncodeToString([]byte{s.Info, s.Other}) + " " + elf.SectionIndex(s.Section).String() +
		" " + strings.TrimLeft(hex.EncodeToString([]byte{byte(s.Value >> 8), byte(s.Value)}), "0") + " " + hex.EncodeToString([]byte{byte(s.Size)})
}
