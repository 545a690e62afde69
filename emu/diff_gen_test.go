package emu_test

// The program generator of FuzzEnginesAgree: fuzz bytes choose forms from
// the isa tables and their operands, within a frame that keeps every
// instruction valid and most accesses in range.
//
// Register frame: s[0:1] the kernarg pointer, s[2:3] the output buffer's
// address, s[4:7] a raw buffer resource over it, s[8:11] a structured
// one, s12 and s13 offsets; random scalar writes go to s16..s47 (and
// sometimes VCC, EXEC or M0). v0 holds the work-item id; random vector
// writes go to v8..v31, sources are v0..v31; address registers v40..v47
// are written only just before the access that uses them.

import (
	"errors"
	"hash/fnv"
	"math/rand/v2"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// Fixed addresses of the fuzz launch's buffers.
const (
	fuzzIn     = 0x7000_0000
	fuzzOut    = 0x7001_0000
	fuzzOutLen = 8192
)

// genLength is the number of random instructions of a program.
const genLength = 80

// gen builds one program from fuzz bytes: they choose the first
// instructions directly, and seed the choice of the rest.
type gen struct {
	t     isa.Target
	fs    *genForms
	data  []byte     // the fuzz bytes not yet used
	rng   *rand.Rand // then bytes from a generator seeded by all of them
	text  []byte
	lds   uint32 // the template kernel's LDS size
	lit   bool   // the instruction being built has a literal
	count int    // random instructions generated
}

func (g *gen) byte() uint32 {
	if len(g.data) == 0 {
		return g.rng.Uint32() & 0xff
	}
	v := g.data[0]
	g.data = g.data[1:]
	return uint32(v)
}

func (g *gen) intn(n int) int { return int(g.byte()|g.byte()<<8) % n }

func (g *gen) u32() uint32 { return g.byte() | g.byte()<<8 | g.byte()<<16 | g.byte()<<24 }

// pick returns one of vs.
func pick[T any](g *gen, vs ...T) T { return vs[g.intn(len(vs))] }

// aligned returns a register number in [lo, hi-width] aligned for width.
func (g *gen) aligned(lo, hi, width int) uint32 {
	a := max(min(width, 4), 1)
	if width == 2 || width == 3 {
		a = 2
	}
	n := lo + g.intn(hi-lo-width+1)
	return uint32(n / a * a)
}

// ssrc returns a scalar source code of width dwords: an SGPR, VCC, EXEC,
// M0, an inline constant or (when lit) the literal.
func (g *gen) ssrc(width int, lit bool) uint32 {
	switch g.intn(16) {
	case 8:
		return 106 // vcc
	case 9:
		return 126 // exec
	case 10:
		if width == 1 {
			return 124 // m0
		}
	case 11, 12:
		return 128 + uint32(g.intn(81)) // 0..64, -1..-16
	case 13:
		return 240 + uint32(g.intn(8)) // ±0.5, ±1, ±2, ±4
	case 14:
		if lit && !g.lit {
			g.lit = true
			return 255
		}
		return 128
	}
	return g.aligned(0, 48, width)
}

// sdst returns a scalar destination code of width dwords.
func (g *gen) sdst(width int) uint32 {
	switch g.intn(24) {
	case 0, 1:
		if width <= 2 {
			return 106 // vcc
		}
	case 2:
		if width <= 2 {
			return 126 // exec
		}
	case 3:
		if width == 1 {
			return 124 // m0
		}
	}
	return g.aligned(16, 48, width)
}

// vsrc returns a 9-bit VALU source code: a VGPR or a scalar source.
func (g *gen) vsrc(width int, lit bool) uint32 {
	if g.intn(2) == 0 {
		return 256 + g.aligned(0, 32, width)
	}
	return g.ssrc(width, lit)
}

// alu returns an encoding of an ALU form with random operands, or nil.
func (g *gen) alu(form *isa.Form) []byte {
	f := &fields{code: map[isa.Field]uint32{}}
	g.lit = false
	e32 := form.Enc != isa.EncVOP3
	for _, s := range form.Operands {
		w := max(int(s.Width), 1)
		switch s.Field {
		case isa.FieldSDST:
			f.code[s.Field] = g.sdst(w)
		case isa.FieldSSRC0, isa.FieldSSRC1:
			f.code[s.Field] = g.ssrc(w, true)
		case isa.FieldSIMM16:
			f.code[s.Field] = g.simm16(form)
		case isa.FieldSIMM32:
			f.code[s.Field] = g.u32()
		case isa.FieldVDST:
			f.code[s.Field] = g.aligned(8, 32, w)
		case isa.FieldVSRC1:
			f.code[s.Field] = g.aligned(0, 32, w)
		case isa.FieldSRC0, isa.FieldSRC1, isa.FieldSRC2:
			switch {
			case s.Field == isa.FieldSRC0 && (form.Flags.Has(isa.FlagSrcVGPR) || form.Flags.Has(isa.FlagSrcLane)):
				f.code[s.Field] = 256 + g.aligned(0, 32, w) // a VGPR only
			case form.Flags.Has(isa.FlagSrcLane) || form.Flags.Has(isa.FlagSrcSreg):
				f.code[s.Field] = g.ssrc(w, false) // the lane select or written value
			default:
				f.code[s.Field] = g.vsrc(w, e32)
			}
		case isa.FieldVCC:
		default:
			return nil
		}
	}
	if f.lit = g.u32(); g.intn(4) == 0 {
		f.lit = pick[uint32](g, 0x3f800000, 0x80000000, 0x7fc00000, 0x00800000, 0x7f800000, 0xffff, 1, 0x8000)
	}
	switch e := form.Enc; {
	case e == isa.EncVOP3 && g.intn(3) == 0, e == isa.EncVOP3P:
		f.vop3mod, f.vop3neg = g.byte()&0x87, g.byte()&0x1f
		if e == isa.EncVOP3P {
			f.vop3mod, f.vop3neg = g.byte(), g.byte()&0x1f
		}
		if text := encode(g.t, form, f); valid(g.t, form, text) {
			return text
		}
		f.vop3mod, f.vop3neg = 0, 0
	case e == isa.EncVOP1 || e == isa.EncVOP2 || e == isa.EncVOPC:
		if g.intn(2) != 0 || g.lit {
			break
		}
		// SDWA (selects, sign extension, modifiers) or DPP (lane moves,
		// masks), valid selects and controls, the other bits random (the
		// decoder rejects what is not valid)
		f.ext = pick[uint32](g, 0xf9, 0xfa)
		mods := uint32(0) // clamp, omod, sext, neg, abs: most operations refuse some
		if g.intn(4) == 0 {
			mods = g.u32()
		}
		sel := func() uint32 { return uint32(g.intn(7)) }
		f.extWord = mods&0xb8b8e000 | sel()<<8 | uint32(g.intn(3))<<11 | sel()<<16 | sel()<<24 | g.aligned(0, 32, 1)
		if f.ext == 0xfa {
			ctrl := pick(g, uint32(g.intn(256)), 0x101+uint32(g.intn(15)), 0x111+uint32(g.intn(15)), 0x121+uint32(g.intn(15)),
				0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143)
			f.extWord = g.u32()&0xff080000 | mods&0x00f00000 | ctrl<<8 | g.aligned(0, 32, 1)
		}
		if text := encode(g.t, form, f); valid(g.t, form, text) {
			return text
		}
		f.ext = 0
	}
	if text := encode(g.t, form, f); valid(g.t, form, text) {
		return text
	}
	return nil
}

// simm16 returns a SOPK/SOPP immediate: hwreg fields naming a register
// the emulator has for s_getreg/s_setreg, a random value otherwise.
func (g *gen) simm16(form *isa.Form) uint32 {
	if form.Flags.Has(isa.FlagHwreg) {
		id := pick[uint32](g, 1, 1, 1, 2, 3, 4, 5, 6, 7)
		off := uint32(g.intn(32))
		size := uint32(g.intn(32-int(off))) + 1
		return id | off<<6 | (size-1)<<11
	}
	return g.byte() | g.byte()<<8
}

// step appends one random instruction (with the set-up its address
// needs); false when no valid encoding came of the bytes.
func (g *gen) step() bool {
	fs := g.fs
	switch k := g.intn(20); {
	case k < 6:
		return g.fold(g.alu(pick(g, fs.salu...)))
	case k < 9:
		return g.fold(g.alu(pick(g, fs.valu...)))
	case k < 12: // VOP1, VOP2 and VOPC, often as SDWA or DPP
		return g.fold(g.alu(pick(g, fs.valu32...)))
	case k < 14:
		return g.smem(pick(g, fs.smem...))
	case k < 16:
		return g.ds(pick(g, fs.ds...))
	case k < 17:
		return g.buffer(pick(g, fs.buf...))
	case k < 19:
		return g.flat(pick(g, fs.flat...))
	default:
		wait := uint32(0)
		if g.intn(2) == 0 {
			wait = g.byte() | g.byte()<<8
		}
		return g.add(g.must(fs.waitcnt, &fields{code: map[isa.Field]uint32{isa.FieldSIMM16: wait}}))
	}
}

func (g *gen) add(text []byte) bool {
	if text == nil {
		return false
	}
	g.text = append(g.text, text...)
	g.count++
	return true
}

// fold adds an ALU instruction and keeps its results alive: each register
// it writes, and SCC, is folded into v63 (v63 = rotr(v63 ^ x, 1)) by VALU
// operations that touch neither SCC nor VCC, so that a wrong intermediate
// value shows in the final state though later instructions overwrite it.
func (g *gen) fold(text []byte) bool {
	if !g.add(text) {
		return false
	}
	in, err := isa.Decode(text, g.t)
	if err != nil {
		return true
	}
	for _, a := range in.Args {
		var src uint32
		switch {
		case a.Access&isa.Write == 0:
			continue
		case a.Kind == isa.KindVGPR:
			src = 256 + uint32(a.Reg)
		case a.Kind == isa.KindSGPR || a.Kind == isa.KindSpecial && a.Reg < 128:
			src = uint32(a.Reg)
		default:
			continue
		}
		for k := range max(uint32(a.Width), 1) {
			g.foldIn(src + k)
		}
	}
	if in.Op.Info().Flags.Has(isa.FlagSCCWrite) {
		g.frame(g.fs.sCselect, &fields{code: map[isa.Field]uint32{isa.FieldSDST: 61, isa.FieldSSRC0: 255, isa.FieldSSRC1: 128}, lit: 0x9e3779b9})
		g.foldIn(61)
	}
	return true
}

// foldIn folds source code src into v63.
func (g *gen) foldIn(src uint32) {
	g.frame(g.fs.vXor, &fields{code: map[isa.Field]uint32{isa.FieldVDST: 63, isa.FieldSRC0: src, isa.FieldVSRC1: 63}})
	g.frame(g.fs.vAlign, &fields{code: map[isa.Field]uint32{isa.FieldVDST: 63, isa.FieldSRC0: 256 + 63, isa.FieldSRC1: 256 + 63, isa.FieldSRC2: 129}})
}

// must encodes a frame instruction; nil when it does not encode (a bug in
// the frame, which the seeds' coverage test reports).
func (g *gen) must(form *isa.Form, f *fields) []byte {
	if text := encode(g.t, form, f); form != nil && valid(g.t, form, text) {
		return text
	}
	return nil
}

// frame emits a frame instruction.
func (g *gen) frame(form *isa.Form, f *fields) {
	g.text = append(g.text, g.must(form, f)...)
}

// genProgram builds the program the fuzz bytes describe for target t.
func genProgram(t isa.Target, fs *genForms, lds uint32, data []byte) []byte {
	h := fnv.New64a()
	h.Write(data)
	g := &gen{t: t, fs: fs, data: data, lds: lds, rng: rand.New(rand.NewPCG(h.Sum64(), uint64(len(data))))}
	g.prologue()
	for tries := 0; g.count < genLength && tries < 4*genLength; tries++ {
		g.step()
	}
	g.frame(fs.endpgm, &fields{code: map[isa.Field]uint32{}})
	return g.text
}

// isUnimplemented reports whether err says the emulator does not implement
// the instruction.
func isUnimplemented(err error) bool {
	var ee *emu.ExecError
	return errors.As(err, &ee) && ee.Msg == "not implemented by the emulator"
}
