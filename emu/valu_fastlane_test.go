package emu

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// laneCases builds, for every operation with a lane function, instructions
// in the forms the compiled fast paths meet: VGPR sources, a literal and an
// SGPR source, abs and neg on the float sources, clamp and omod, and a
// destination aliasing a source.
func laneCases() []ti {
	names := make([]string, 0, len(ref.OpTable))
	for n, d := range ref.OpTable {
		if d.V != nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var cs []ti
	for _, n := range names {
		v := ref.OpTable[n].V
		reg := func(n int, wd uint8) isa.Operand {
			if wd == 2 {
				return vreg2(n)
			}
			return vreg(n)
		}
		dst := []isa.Operand{reg(8, v.DstW)}
		if v.Cout {
			dst = append(dst, vcc())
		}
		var src []isa.Operand
		for k := 0; k < int(v.Nsrc); k++ {
			if k == 2 && v.Mac {
				break
			}
			src = append(src, reg(2*k, v.SrcW[k]))
		}
		if v.Cin {
			src = append(src, vcc())
		}
		form := func(d, s []isa.Operand) ti {
			return I(n, append(append([]isa.Operand(nil), d...), s...)...).enc(isa.EncVOP3)
		}
		cs = append(cs, form(dst, src))
		s := append([]isa.Operand(nil), src...)
		s[0] = lit(0x3fc00001)
		if len(s) > 1 {
			s[len(s)-1] = sreg2(4)
			if v.SrcW[len(s)-1] != 2 {
				s[len(s)-1] = sreg(5)
			}
		}
		cs = append(cs, form(dst, s))
		d := append([]isa.Operand(nil), dst...)
		d[0] = reg(2, v.DstW) // aliases S1 (or its pair)
		cs = append(cs, form(d, src))
		if v.Ft != 0 {
			s = append([]isa.Operand(nil), src...)
			for k := range s {
				if k < int(v.Nsrc) && v.Isrc>>uint(k)&1 == 0 {
					s[k].Neg, s[k].Abs = k != 1, k != 0
				}
			}
			cs = append(cs, form(dst, s))
		}
		if v.Oft != 0 || v.Ft == 0 {
			for _, m := range []isa.Modifiers{{Clamp: true}, {Omod: 1}, {Omod: 3, Clamp: true}} {
				cs = append(cs, form(dst, src).with(func(x *isa.Modifiers) { *x = m }))
			}
		}
	}
	return cs
}

// TestLaneFastMatchesGeneric: the lane path leaves exactly the state
// execVOP leaves, for every operation with a lane function.
func TestLaneFastMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	iters := 12
	if testing.Short() {
		iters = 3
	}
	lane := 0
	for ci, c := range laneCases() {
		p := prog(isa.GFX9, c)
		in := &p.Code[0]
		if in.Def == nil || in.Def.V == nil {
			continue
		}
		if fnPtr(in.Fn) == fnPtr(fast.ExecLaneFast) {
			lane++
		}
		desc := fmt.Sprintf("#%d %s %v %+v", ci, c.name, c.in.Args, c.in.Mods)
		for it := 0; it < iters; it++ {
			fastCheck(t, desc, fastWave(r), in, ref.ExecVOP, it%3 == 0)
		}
		for i, ex := range edgeMasks {
			fastCheck(t, desc, withExec(fastWave(r), ex), in, ref.ExecVOP, i%3 == 0)
		}
	}
	if lane < 300 {
		t.Errorf("only %d instructions took the lane path", lane)
	}
}
