package emu

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// PRECISION.md lists every implemented operation with whether its result is
// bit-exact or approximate; it is generated from the operation table
// (OpPrecision) and this test fails when it is stale (go test ./emu -args
// -update rewrites it).
func TestPrecisionDoc(t *testing.T) {
	var b strings.Builder
	b.WriteString("# emu: precision of each operation\n\n")
	b.WriteString("Generated from the operation table by `go test ./emu -args -update` (TestPrecisionDoc).\n")
	b.WriteString("\"exact\" means bit-identical to the ISA manual's definition under every MODE setting;\n")
	b.WriteString("RATIONALE.md explains the approximations.\n\n")
	b.WriteString("| operation | result |\n| --- | --- |\n")
	for _, n := range ref.SupportedOps() {
		p, _ := ref.OpPrecision(n)
		fmt.Fprintf(&b, "| `%s` | %s |\n", n, p)
	}
	const path = "PRECISION.md"
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != b.String() {
		t.Errorf("%s is stale: run go test ./emu -args -update", path)
	}
}
