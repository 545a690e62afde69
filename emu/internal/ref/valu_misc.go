package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math"
)

// Remaining GFX8/GFX9 VALU operations.

func init() {
	// V_CVT_PKACCUM_U8_F32 (GCN3 manual): V_CVT_PK_U8_F32 with the
	// destination as the third source — S0.f converted to u8 (round to
	// nearest even, clamped to 0…255, NaN → 0) replaces byte S1.u[1:0] of D.
	defV("v_cvt_pkaccum_u8_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Isrc: 6, Mac: true, Fn: cvtPkU8})
	// V_SCREEN_PARTITION_4SE_B32 (Vega manual): D.u = TABLE[S0.u[7:0]].
	defV("v_screen_partition_4se_b32", core.CVALU, core.Vop{Nsrc: 1, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return uint64(screenPartition4SE(uint8(a)))
	}})
}

// cvtPkU8 packs S0.f, converted to u8, into byte S1[1:0] of S2.
func cvtPkU8(e *core.Fenv, a, b, c uint64) uint64 {
	f := float64(core.F32(uint32(a)))
	v := uint32(0)
	if f == f {
		v = uint32(math.Max(0, math.Min(255, math.RoundToEven(f))))
	}
	sh := 8 * (uint32(b) & 3)
	return uint64(uint32(c)&^(0xff<<sh) | v<<sh)
}

// screenPartition4SE computes the Vega manual's 256-entry table: the
// select is {x_min[6:5], y_min[6:5], x_max[6:5], y_max[6:5]} of a
// rectangle in 32-pixel tiles, the tile (x, y) belongs to shader engine
// {x[5]^y[6], y[5]^x[6]}, and the result has bit s set when the rectangle
// covers a tile of engine s. Tile coordinates are two bits, so a rectangle
// runs from min to max modulo 4 (the caller handles spans of 3 or more).
// TestScreenPartition checks every entry against the manual's table.
func screenPartition4SE(sel uint8) uint32 {
	x0, y0 := uint(sel>>6&3), uint(sel>>4&3)
	nx, ny := (uint(sel>>2&3)-x0)&3, (uint(sel&3)-y0)&3
	var m uint32
	for i := uint(0); i <= nx; i++ {
		for j := uint(0); j <= ny; j++ {
			x, y := (x0+i)&3, (y0+j)&3
			se := (x&1^y>>1)<<1 | (y&1 ^ x>>1)
			m |= 1 << se
		}
	}
	return m
}
