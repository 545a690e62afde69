package isa

import (
	"strings"
	"testing"
)

// TestOperandTextsJoinToText checks, for every instruction of the golden
// decode corpora, that the head and operand texts join back into the
// printed line.
func TestOperandTextsJoinToText(t *testing.T) {
	bad, n := 0, 0
	var ops []string
	for _, f := range []string{goldenFile, "testdata/valu.txt"} {
		for _, c := range readGolden(t, f) {
			tg, ok := TargetOf(c.cpu)
			if !ok {
				t.Fatalf("%s: bad cpu %q", f, c.cpu)
			}
			inst, err := Decode(wordBytes(c.words), tg)
			if err != nil {
				continue
			}
			n++
			want := inst.String()
			var head string
			head, ops = inst.OperandTexts(ops[:0], 0, nil)
			have := head
			if len(ops) > 0 {
				have += " " + strings.Join(ops, ", ")
			}
			if have != want {
				if bad++; bad <= 20 {
					t.Errorf("%s %08X: head %q, ops %q join to %q, want %q", c.cpu, c.words, head, ops, have, want)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d instructions differ", bad, n)
	}
}

// TestOperandTextsSplit pins the cuts of a few lines.
func TestOperandTextsSplit(t *testing.T) {
	for _, c := range []struct {
		cpu   string
		words []uint32
		head  string
		ops   []string
	}{
		{"gfx803", []uint32{0x80082814}, "s_add_u32", []string{"s8", "s20", "s40"}},
		{"gfx803", []uint32{0x8008FFC1, 0x12345678}, "s_add_u32", []string{"s8", "-1", "0x12345678"}},
		{"gfx900", []uint32{0xBF810000}, "s_endpgm", nil},
	} {
		tg, _ := TargetOf(c.cpu)
		inst, err := Decode(wordBytes(c.words), tg)
		if err != nil {
			t.Fatalf("%08X: %v", c.words, err)
		}
		head, ops := inst.OperandTexts(nil, 0, nil)
		if head != c.head || strings.Join(ops, "|") != strings.Join(c.ops, "|") || len(ops) != len(c.ops) {
			t.Errorf("%08X: have %q %q, want %q %q", c.words, head, ops, c.head, c.ops)
		}
	}
}
