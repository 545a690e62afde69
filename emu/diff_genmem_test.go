package emu_test

// The generator's memory instructions (SMEM, DS, MUBUF/MTBUF, FLAT and
// GLOBAL) with the address set-up each needs, its prologue, and the forms
// it draws from.

import (
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// genForms are the forms the generator draws from, for one target.
type genForms struct {
	salu, valu, smem, ds, buf, flat []*isa.Form
	valu32                          []*isa.Form // valu's VOP1, VOP2 and VOPC forms

	// frame instructions
	waitcnt, endpgm, sMov, sMov64, sSetreg, sCselect, vMov, vAnd, vXor, vMulU24, vCvt, vAddCo, vAddc, vAlign *isa.Form
}

var formCache sync.Map // isa.Target → *genForms

// formsFor returns target t's generator forms: the ALU forms the emulator
// implements (probed once) and the memory forms it compiles.
func formsFor(t isa.Target) *genForms {
	if fs, ok := formCache.Load(t); ok {
		return fs.(*genForms)
	}
	fs := &genForms{}
	named := func(enc isa.Encoding, name string) *isa.Form {
		for _, f := range formsOf(t, enc) {
			if f.Mnemonic == name {
				return f
			}
		}
		return nil
	}
	add, addc := "v_add_co_u32", "v_addc_co_u32"
	if t == isa.GFX8 {
		add, addc = "v_add_u32", "v_addc_u32"
	}
	fs.waitcnt, fs.endpgm = named(isa.EncSOPP, "s_waitcnt"), named(isa.EncSOPP, "s_endpgm")
	fs.sMov, fs.sMov64, fs.sSetreg = named(isa.EncSOP1, "s_mov_b32"), named(isa.EncSOP1, "s_mov_b64"), named(isa.EncSOPK, "s_setreg_imm32_b32")
	fs.vMov, fs.vCvt = named(isa.EncVOP1, "v_mov_b32"), named(isa.EncVOP1, "v_cvt_f32_u32")
	fs.vAnd, fs.vXor, fs.vMulU24 = named(isa.EncVOP2, "v_and_b32"), named(isa.EncVOP2, "v_xor_b32"), named(isa.EncVOP2, "v_mul_u32_u24")
	fs.vAddCo, fs.vAddc = named(isa.EncVOP2, add), named(isa.EncVOP2, addc)
	fs.sCselect, fs.vAlign = named(isa.EncSOP2, "s_cselect_b32"), named(isa.EncVOP3, "v_alignbit_b32")

	for _, enc := range []isa.Encoding{isa.EncSOP2, isa.EncSOP1, isa.EncSOPC, isa.EncSOPK, isa.EncVOP1, isa.EncVOP2, isa.EncVOPC, isa.EncVOP3, isa.EncVOP3P} {
		for _, f := range formsOf(t, enc) {
			if leaves(f) {
				continue
			}
			switch cl := f.Op.Info().Class; {
			case cl == isa.ClassSALU && implemented(t, fs, f):
				fs.salu = append(fs.salu, f)
			case cl == isa.ClassVALU && implemented(t, fs, f):
				fs.valu = append(fs.valu, f)
				if enc == isa.EncVOP1 || enc == isa.EncVOP2 || enc == isa.EncVOPC {
					fs.valu32 = append(fs.valu32, f)
				}
			}
		}
	}
	for _, f := range formsOf(t, isa.EncSMEM) {
		if !strings.HasPrefix(f.Mnemonic, "s_scratch_") { // the launch has no scratch
			fs.smem = append(fs.smem, f)
		}
	}
	for _, f := range formsOf(t, isa.EncDS) {
		if !f.Flags.Has(isa.FlagGDSOnly) {
			fs.ds = append(fs.ds, f)
		}
	}
	for _, f := range append(formsOf(t, isa.EncMUBUF), formsOf(t, isa.EncMTBUF)...) {
		if !f.Flags.Has(isa.FlagLDSOnly) {
			fs.buf = append(fs.buf, f)
		}
	}
	for _, f := range formsOf(t, isa.EncFLAT) {
		if seg := f.Opcode >> 7; seg == 0 || seg == 2 {
			fs.flat = append(fs.flat, f)
		}
	}
	v, _ := formCache.LoadOrStore(t, fs)
	return v.(*genForms)
}

// leaves reports whether ALU form f may leave the program (s_rfe_*,
// s_cbranch_g_fork, s_setpc, ...) or index registers by M0 (s_movrel*,
// v_movrel*: the prologue leaves M0 all ones), which would end most
// programs early.
func leaves(f *isa.Form) bool {
	for _, p := range []string{"s_rfe", "s_cbranch", "s_setpc", "s_swappc", "s_call", "s_movrel", "v_movrel"} {
		if strings.HasPrefix(f.Mnemonic, p) {
			return true
		}
	}
	return f.Flags.Has(isa.FlagBranch)
}

// implemented reports whether some random operands of ALU form f encode
// and the emulator executes the instruction (rather than stopping with
// "not implemented").
func implemented(t isa.Target, fs *genForms, f *isa.Form) bool {
	for seed := range 16 {
		data := make([]byte, 64)
		for i := range data {
			data[i] = byte(seed*73 + i*29)
		}
		g := &gen{t: t, fs: fs, data: data, rng: rand.New(rand.NewPCG(0, 0))}
		text := g.alu(f)
		if text == nil {
			continue
		}
		m := emu.NewMachine(emu.DecodeProgram(t, 0, append(text, 0x00, 0x00, 0x81, 0xbf)), nil, emu.DefaultConfig(t))
		_, err := m.Step()
		return !isUnimplemented(err)
	}
	return false
}

// prologue sets up the register frame.
func (g *gen) prologue() {
	fs := g.fs
	// buffer resource word 3s (DST_SEL, formats; 0x807fac: ADD_TID_ENABLE
	// with DATA_FORMAT 0, which format instructions refuse: s[8:11] only)
	word3 := []uint32{0x27fac, 0x50fac, 0x50237, 0x28fac, 0x50f2e}
	for _, r := range [][2]uint32{
		{2, fuzzOut}, {3, 0},
		{4, fuzzOut}, {5, 0}, {6, pick[uint32](g, fuzzOutLen, 4096, 100, 0xffffffff)}, {7, pick(g, word3...)},
		{8, fuzzOut}, {9, pick[uint32](g, 4, 8, 12, 16) << 16}, {10, pick[uint32](g, 64, 300, 1000)}, {11, pick(g, append(word3, 0x807fac)...)},
		{12, pick[uint32](g, 0, 4, 6, 64, 0x100)}, {13, g.u32() & 0xfff}, {124, 0xffffffff},
	} {
		g.frame(fs.sMov, &fields{code: map[isa.Field]uint32{isa.FieldSDST: r[0], isa.FieldSSRC0: 255}, lit: r[1]})
	}
	for reg := uint32(14); reg < 32; reg++ {
		g.frame(fs.sMov, &fields{code: map[isa.Field]uint32{isa.FieldSDST: reg, isa.FieldSSRC0: 255}, lit: g.u32()})
	}
	for reg := uint32(1); reg < 32; reg++ {
		g.frame(fs.vMulU24, &fields{code: map[isa.Field]uint32{isa.FieldVDST: reg, isa.FieldSRC0: 255, isa.FieldVSRC1: 0}, lit: g.u32() | 1})
		g.frame(fs.vXor, &fields{code: map[isa.Field]uint32{isa.FieldVDST: reg, isa.FieldSRC0: 255, isa.FieldVSRC1: reg}, lit: g.u32()})
		if reg%4 == 3 {
			g.frame(fs.vCvt, &fields{code: map[isa.Field]uint32{isa.FieldVDST: reg, isa.FieldSRC0: 256 + reg}})
		}
	}
	if g.intn(3) == 0 { // rounding and denormal modes
		g.frame(fs.sSetreg, &fields{code: map[isa.Field]uint32{isa.FieldSIMM16: 1 | 7<<11, isa.FieldSIMM32: g.byte()}})
	}
	if g.intn(4) == 0 { // some lanes off
		g.frame(fs.sMov64, &fields{code: map[isa.Field]uint32{isa.FieldSDST: 126, isa.FieldSSRC0: 16}})
	}
}

// vAnd sets VGPR dst to a random VGPR source masked by one of masks.
func (g *gen) vAnd(dst uint32, masks ...uint32) {
	g.frame(g.fs.vAnd, &fields{code: map[isa.Field]uint32{isa.FieldVDST: dst, isa.FieldSRC0: 255, isa.FieldVSRC1: g.aligned(0, 32, 1)},
		lit: pick(g, masks...)})
}

// ldsMasks are address masks within the LDS, at its end and past it.
func (g *gen) ldsMasks() []uint32 {
	m := g.lds - 1
	return []uint32{m &^ 3, m &^ 7, m &^ 3, m, (2*g.lds - 1) &^ 3, 0x3c}
}

// addr64 sets v[44:45] to a flat address: in the output buffer or, for a
// FLAT instruction (lds), sometimes in the LDS aperture.
func (g *gen) addr64(lds bool) {
	fs := g.fs
	if lds && g.intn(3) == 0 {
		g.vAnd(44, g.ldsMasks()...)
		g.frame(fs.vMov, &fields{code: map[isa.Field]uint32{isa.FieldVDST: 45, isa.FieldSRC0: 255}, lit: uint32(emu.SharedApertureBase >> 32)})
		return
	}
	g.vAnd(44, 0x1ffc, 0x1ff8, 0x1fff, 0xfc)
	g.frame(fs.vAddCo, &fields{code: map[isa.Field]uint32{isa.FieldVDST: 44, isa.FieldSRC0: 2, isa.FieldVSRC1: 44}})
	g.frame(fs.vMov, &fields{code: map[isa.Field]uint32{isa.FieldVDST: 45, isa.FieldSRC0: 3}})
	g.frame(fs.vAddc, &fields{code: map[isa.Field]uint32{isa.FieldVDST: 45, isa.FieldSRC0: 128, isa.FieldVSRC1: 45}})
}

// dataReg returns the VGPR of a memory instruction's data operand: any for a
// source, v8 and up for a destination.
func (g *gen) dataReg(s isa.OperandSpec) uint32 {
	if s.Access&isa.Write != 0 {
		return g.aligned(8, 32, int(s.Width))
	}
	return g.aligned(0, 32, int(s.Width))
}

func (g *gen) ds(form *isa.Form) bool {
	f := &fields{code: map[isa.Field]uint32{}}
	for _, s := range form.Operands {
		switch s.Field {
		case isa.FieldADDR:
			g.vAnd(46, g.ldsMasks()...)
			f.code[s.Field] = 46
		case isa.FieldDATA0, isa.FieldDATA1, isa.FieldVDST:
			f.code[s.Field] = g.dataReg(s)
		default:
			return false
		}
	}
	switch {
	case form.Flags.Has(isa.FlagOffset2):
		f.offset = uint32(g.intn(16) | g.intn(16)<<8)
	case strings.HasPrefix(form.Mnemonic, "ds_swizzle"):
		f.offset = g.byte() | g.byte()<<8
	default:
		f.offset = pick(g, 0, 4, uint32(g.intn(64))*4, uint32(g.intn(1<<16)))
	}
	return g.add(g.must(form, f))
}

func (g *gen) buffer(form *isa.Form) bool {
	f := &fields{code: map[isa.Field]uint32{}, glc: g.intn(2) == 0, slc: g.intn(8) == 0,
		offset: pick(g, 0, uint32(g.intn(64))*4, uint32(g.intn(4096))), dfmt: 1 + uint32(g.intn(14)), nfmt: uint32(g.intn(8))}
	mode := g.intn(4)
	f.offen, f.idxen = mode&1 != 0, mode&2 != 0
	offsets := []uint32{0x1ffc, 0x1fff, 0x3ffc, 0xfc, 0x1ff8}
	for _, s := range form.Operands {
		switch s.Field {
		case isa.FieldVADDR:
			switch mode {
			case 1:
				g.vAnd(40, offsets...)
				f.code[s.Field] = 40
			case 2:
				g.vAnd(41, 0x7f, 0x3ff, 0x1f)
				f.code[s.Field] = 41
			case 3:
				g.vAnd(42, 0x7f, 0x3ff, 0x1f)
				g.vAnd(43, offsets...)
				f.code[s.Field] = 42
			}
		case isa.FieldVDATA:
			f.code[s.Field] = g.dataReg(s)
		case isa.FieldSRSRC:
			f.code[s.Field] = pick[uint32](g, 4, 8)
			if form.Flags.Has(isa.FlagFormat) && form.Enc == isa.EncMUBUF {
				f.code[s.Field] = 4
			}
		case isa.FieldSOFFSET:
			f.code[s.Field] = pick[uint32](g, 12, 13, 128)
		default:
			return false
		}
	}
	return g.add(g.must(form, f))
}

func (g *gen) flat(form *isa.Form) bool {
	global := form.Opcode>>7 == 2
	saddr := global && g.intn(2) == 0
	f := &fields{code: map[isa.Field]uint32{}, glc: g.intn(2) == 0, slc: g.intn(8) == 0}
	if global {
		f.offset = uint32(g.intn(256))
	} else if g.t == isa.GFX9 {
		f.offset = uint32(g.intn(64)) * 4
	}
	for _, s := range form.Operands {
		switch s.Field {
		case isa.FieldVADDR:
			if saddr {
				g.vAnd(40, 0x1ffc, 0x1ff8, 0x1fff)
				f.code[s.Field] = 40
			} else {
				g.addr64(!global)
				f.code[s.Field] = 44
			}
		case isa.FieldSADDR:
			f.code[s.Field] = 0x7f
			if saddr {
				f.code[s.Field] = 2
			}
		case isa.FieldVDATA, isa.FieldVDST:
			f.code[s.Field] = g.dataReg(s)
		default:
			return false
		}
	}
	return g.add(g.must(form, f))
}

func (g *gen) smem(form *isa.Form) bool {
	f := &fields{code: map[isa.Field]uint32{}, glc: g.intn(4) == 0, imm: g.intn(4) != 0,
		offset: pick(g, uint32(g.intn(512))*4, uint32(g.intn(fuzzOutLen)))}
	for _, s := range form.Operands {
		switch s.Field {
		case isa.FieldSDATA:
			switch {
			case s.Imm:
				f.code[s.Field] = g.byte() & 0x7f
			case s.Access&isa.Write != 0:
				f.code[s.Field] = g.aligned(16, 48, int(s.Width))
			default:
				f.code[s.Field] = g.aligned(0, 48, int(s.Width))
			}
		case isa.FieldSBASE:
			f.code[s.Field] = 2
			if strings.HasPrefix(form.Mnemonic, "s_buffer_") {
				f.code[s.Field] = 4
			}
		case isa.FieldOFFSET, isa.FieldSOFFSET:
			f.code[isa.FieldSOFFSET] = pick[uint32](g, 12, 13)
		default:
			return false
		}
	}
	if text := g.must(form, f); text != nil {
		return g.add(text)
	}
	f.imm = !f.imm
	return g.add(g.must(form, f))
}
