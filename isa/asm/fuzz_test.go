package asm

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
)

// FuzzAssembleFile feeds mutated source files to the assembler: it must
// never panic; a failure is an ErrorList whose errors name the file, a
// line of it (or the one past the end) and a column; a success is a code
// object the loader reads (its metadata aside, which is the source's).
// Seeds: every sample's source, and testdata/fuzz/FuzzAssembleFile.
func FuzzAssembleFile(f *testing.F) {
	for _, s := range samples(f) {
		b, err := os.ReadFile(s.src)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		co, err := Assemble("f.s", src, Options{Target: "gfx900"})
		if err != nil {
			var el ErrorList
			if !errors.As(err, &el) {
				if !strings.Contains(err.Error(), "f.s") && !strings.Contains(err.Error(), "code object") {
					t.Fatalf("error %q is not an ErrorList and names no file", err)
				}
				return
			}
			lines := bytes.Count(src, []byte("\n")) + 2
			for _, e := range el {
				if e.File != "f.s" || e.Line < 1 || e.Line > lines || e.Col < 1 || e.Msg == "" {
					t.Fatalf("bad error %+v", e)
				}
			}
			return
		}
		f, err := loader.NewFile(bytes.NewReader(co))
		if err != nil {
			t.Fatalf("the loader rejects our ELF: %v", err)
		}
		if _, err := f.Symbols(); err != nil {
			t.Fatalf("the loader rejects our symbols: %v", err)
		}
		// The metadata is the source's, as LLVM accepts it; the loader
		// may ask more of it (amdhsa.version: [-1, 0] passes LLVM).
		if _, err := loader.NewCodeObject(bytes.NewReader(co), int64(len(co))); err != nil && !strings.Contains(err.Error(), "NT_AMDGPU_METADATA") {
			t.Fatalf("the loader rejects our code object: %v", err)
		}
	})
}
