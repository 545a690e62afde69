package ref

import (
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// TestFmaNaNSource: a NaN fma returns its first NaN source, S0 then S1
// then S2, quieted; the default NaN only when no source is one. Each width
// is checked with signalling NaNs whose payloads tell the sources apart.
func TestFmaNaNSource(t *testing.T) {
	e := &core.Fenv{}
	type fma func(e *core.Fenv, a, b, c uint64) uint64
	widths := []struct {
		name           string
		fn             fma
		one, inf, sign uint64    // 1.0, +∞, the sign bit
		nan            [3]uint64 // signalling NaNs, one payload per source
		quiet, def     uint64
	}{
		{"f16", FmaF16, 0x3c00, 0x7c00, 0x8000, [3]uint64{0x7c01, 0x7c02, 0xfc03}, 0x200, 0x7e00},
		{"f32", FmaF32, 0x3f800000, 0x7f800000, 1 << 31, [3]uint64{0x7f800001, 0x7f800002, 0xff800003}, 0x400000, 0x7fc00000},
		{"f64", FmaF64, 0x3ff0000000000000, 0x7ff0000000000000, 1 << 63, [3]uint64{0x7ff0000000000001, 0x7ff0000000000002, 0xfff0000000000003}, 1 << 51, 0x7ff8000000000000},
	}
	for _, w := range widths {
		one, inf, ninf, n := w.one, w.inf, w.inf|w.sign, w.nan
		cases := []struct {
			a, b, c, want uint64
		}{
			{n[0], one, one, n[0] | w.quiet},
			{one, n[1], one, n[1] | w.quiet},
			{one, one, n[2], n[2] | w.quiet},
			{n[0], n[1], n[2], n[0] | w.quiet},
			{one, n[1], n[2], n[1] | w.quiet},
			{n[0], one, n[2], n[0] | w.quiet},
			{inf, 0, one, w.def},    // ∞ × 0
			{inf, one, ninf, w.def}, // ∞ − ∞
			{inf, 0, n[2], n[2] | w.quiet},
		}
		for _, c := range cases {
			if got := w.fn(e, c.a, c.b, c.c); got != c.want {
				t.Errorf("%s fma(%#x, %#x, %#x) = %#x, want %#x", w.name, c.a, c.b, c.c, got, c.want)
			}
		}
	}
}
