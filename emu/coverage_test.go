package emu

import (
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// notModelled lists the SALU/VALU/SMEM operations the decoder knows and the
// emulator does not implement (RATIONALE.md, "Not modelled"); executing one
// stops the wave with an ExecError.
var notModelled []string // none

func TestOpCoverage(t *testing.T) {
	missing := map[string]bool{}
	for _, tg := range []isa.Target{isa.GFX8, isa.GFX9} {
		for enc := isa.EncSOP2; enc <= isa.EncVOP3P; enc++ {
			for opc := 0; opc < 1024; opc++ {
				f := isa.LookupForm(tg, enc, uint16(opc))
				if f == nil {
					continue
				}
				n := f.Op.String()
				if tg == isa.GFX8 {
					if a, ok := ref.Gfx8Alias[n]; ok {
						n = a
					}
				}
				if ref.OpTable[n] == nil {
					missing[n] = true
				}
			}
		}
	}
	var got []string
	for n := range missing {
		got = append(got, n)
	}
	sort.Strings(got)
	want := append([]string(nil), notModelled...)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("unimplemented operations changed:\n got %v\nwant %v", got, want)
	}
	for _, n := range []string{"v_add_f32", "v_rcp_f32", "v_fma_f64"} {
		if p, ok := ref.OpPrecision(n); !ok || p == "" {
			t.Errorf("no precision note for %s", n)
		}
	}
}

func TestTrigPreop(t *testing.T) {
	if d := math.Abs(ref.TwoOverPiBits(0) - 2/math.Pi); d > 0x1p-53 {
		t.Errorf("first segment of 2/π off by %g", d)
	}
	// segments add up to 2/π
	s := ref.TwoOverPiBits(0) + ref.TwoOverPiBits(53)
	if math.Abs(s-2/math.Pi) > 0x1p-100 {
		t.Errorf("two segments: %g", s-2/math.Pi)
	}
}
