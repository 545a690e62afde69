package isa

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestWaitcntFields checks the per-generation s_waitcnt layout: GFX9's
// vmcnt has two more bits at [15:14], which GFX8 ignores.
func TestWaitcntFields(t *testing.T) {
	for _, tc := range []struct {
		t    Target
		imm  uint16
		want Waitcnt
	}{
		{GFX8, 0x0f7f, Waitcnt{15, 7, 15}},
		{GFX9, 0xcf7f, Waitcnt{63, 7, 15}},
		{GFX8, 0xc07f, Waitcnt{15, 7, 0}},
		{GFX9, 0xc07f, Waitcnt{63, 7, 0}},
		{GFX9, 0x9b09, Waitcnt{41, 0, 11}},
		{GFX8, 0x9b09, Waitcnt{9, 0, 11}},
		{GFX8, 0x1234, Waitcnt{4, 3, 2}},
	} {
		if got := WaitcntFields(tc.t, tc.imm); got != tc.want {
			t.Errorf("WaitcntFields(%s, %#x) = %+v, want %+v", tc.t, tc.imm, got, tc.want)
		}
	}
	if m := WaitcntMax(GFX8); m != (Waitcnt{15, 7, 15}) {
		t.Errorf("WaitcntMax(gfx8) = %+v", m)
	}
	if m := WaitcntMax(GFX9); m != (Waitcnt{63, 7, 15}) {
		t.Errorf("WaitcntMax(gfx9) = %+v", m)
	}
}

// TestWaitcntImmInverts checks WaitcntImm against WaitcntFields for every
// simm16 of both generations, and its range errors.
func TestWaitcntImmInverts(t *testing.T) {
	for _, tg := range []struct {
		t    Target
		mask uint16 // the bits that hold a field
	}{{GFX8, 0x0f7f}, {GFX9, 0xcf7f}} {
		for v := 0; v <= 0xffff; v++ {
			got, err := WaitcntImm(tg.t, WaitcntFields(tg.t, uint16(v)))
			if err != nil || got != uint16(v)&tg.mask {
				t.Fatalf("%s: WaitcntImm(WaitcntFields(%#x)) = %#x, %v", tg.t, v, got, err)
			}
		}
	}
	for _, tc := range []struct {
		t    Target
		w    Waitcnt
		want string
	}{
		{GFX8, Waitcnt{16, 0, 0}, "vmcnt(16) is out of range on gfx8 (0 to 15)"},
		{GFX9, Waitcnt{0, 8, 0}, "expcnt(8) is out of range on gfx9 (0 to 7)"},
		{GFX9, Waitcnt{0, 0, -1}, "lgkmcnt(-1) is out of range on gfx9 (0 to 15)"},
	} {
		if _, err := WaitcntImm(tc.t, tc.w); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("WaitcntImm(%s, %+v): %v, want %q", tc.t, tc.w, err, tc.want)
		}
	}
}

// TestWaitcntAgreesWithLLVM reads the s_waitcnt lines of the LLVM 19
// corpus (testdata/decode.txt) and checks WaitcntFields against the counts
// LLVM prints (an absent counter is at its maximum).
func TestWaitcntAgreesWithLLVM(t *testing.T) {
	f, err := os.Open("testdata/decode.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		if len(p) != 3 || !strings.HasPrefix(p[2], "s_waitcnt ") {
			continue
		}
		tg, ok := TargetOf(p[0])
		word, err := strconv.ParseUint(p[1], 16, 32)
		if !ok || err != nil {
			t.Fatalf("bad corpus line %q", sc.Text())
		}
		want := WaitcntMax(tg)
		for _, c := range strings.Fields(strings.TrimPrefix(p[2], "s_waitcnt ")) {
			var name string
			var v int
			if _, err := fmt.Sscanf(strings.NewReplacer("(", " ", ")", "").Replace(c), "%s %d", &name, &v); err != nil {
				t.Fatalf("%q: %v", c, err)
			}
			*map[string]*int{"vmcnt": &want.VM, "expcnt": &want.EXP, "lgkmcnt": &want.LGKM}[name] = v
		}
		if got := WaitcntFields(tg, uint16(word)); got != want {
			t.Errorf("%s %s (%s): WaitcntFields = %+v", p[0], p[1], p[2], got)
		}
		n++
	}
	if n < 10 {
		t.Errorf("only %d s_waitcnt lines in the corpus", n)
	}
}
