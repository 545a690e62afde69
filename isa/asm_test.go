package isa

import (
	"fmt"
	"testing"
)

// TestAssembleGoldenRoundTrip assembles the text of every valid word of
// the decoder's golden files and expects the original words back.
func TestAssembleGoldenRoundTrip(t *testing.T) {
	for _, file := range []string{"testdata/decode.txt", "testdata/valu.txt", "testdata/mem.txt"} {
		bad := map[string]int{}
		shown := 0
		n := 0
		for _, g := range readGolden(t, file) {
			if g.text == "<invalid>" {
				continue
			}
			tg, _ := TargetOf(g.cpu)
			feat := FeaturesOf(g.cpu)
			var inst Inst
			if err := DecodeWith(wordBytes(g.words), tg, feat, &inst); err != nil {
				continue
			}
			want := g.words[:inst.Len/4]
			text := inst.String()
			n++
			got, err := Assemble(nil, text, tg, feat, nil)
			if err == nil && fmt.Sprint(got) == fmt.Sprint(want) {
				continue
			}
			bad[inst.Enc.String()]++
			if shown < 40 {
				shown++
				t.Errorf("%s %s: %q: got %08X, %v; want %08X", file, g.cpu, text, got, err, want)
			}
		}
		t.Logf("%s: %d instructions, failures per encoding %v", file, n, bad)
	}
}
