package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestGeneratedUpToDate fails when isa/tables.go is not what the generator
// makes of isa/tables/*.txt: someone edited one without regenerating (run
// go run ./isa/internal/gen) or edited the generated file by hand.
func TestGeneratedUpToDate(t *testing.T) {
	want, err := generate("../../tables")
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../../tables.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatal("isa/tables.go is stale: run go run ./isa/internal/gen")
	}
}

// TestGenOpFactWords checks that the generator reads br=COND into the op's
// facts and rejects it where it does not belong.
func TestGenOpFactWords(t *testing.T) {
	for _, tc := range []struct {
		line, want, err string
	}{
		{"SOPP 8,9 0x4 s_cbranch_scc0 branch - label,branch,cond,br=scc0 simm16:r:imm:0", "BranchSCC0", ""},
		{"SOPP 8,9 0x2 s_branch branch - label,branch,br=always simm16:r:imm:0", "BranchAlways", ""},
		{"SOPP 8,9 0x4 s_cbranch_scc0 branch - br=scc2 simm16:r:imm:0", "", "bad value in br=scc2"},
		{"SOPP 8,9 0xa s_barrier control - barrier,br=always", "", "br=always on a SOPP row of class control"},
		{"SOPP 8,9 0x4 s_cbranch_scc0 branch - br=scc0,br=scc1 simm16:r:imm:0", "", "fact br given twice"},
	} {
		r, err := parseRow(strings.Fields(tc.line))
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		if o := newOpFactSet(r); o.branch != tc.want {
			t.Errorf("%s: branch %q, want %q", tc.line, o.branch, tc.want)
		}
	}
}
