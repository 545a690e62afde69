package main

import (
	"bytes"
	"os"
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
