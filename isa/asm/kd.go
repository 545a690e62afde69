package asm

import (
	"encoding/binary"
	"strings"

	"github.com/wavedbg/wavedbg/isa"
)

// A kernel is one .amdhsa_kernel block's result.
type kernel struct {
	name      string
	kd        [64]byte
	sec       *section // where the descriptor is, at off
	off       int
	line      int
	nextVGPR  int64
	nextSGPR  int64 // with the extra SGPRs reserved
	kernarg   uint32
	group     uint32
	private   uint32
	dynStack  bool
	wavefront int
}

// kdField is a bit field of the kernel descriptor an .amdhsa_ directive
// sets: the byte offset of its word, shift and width. minGen, when set, is
// the first generation that has it (8 or 9); later generations' fields
// carry an error instead.
type kdField struct {
	off, shift, width int
	minMajor          int
	userSGPRs         int64 // user SGPRs the field enables
	err               string
}

// KD offsets (AMDGPUUsage "Kernel Descriptor").
const (
	kdGroup   = 0
	kdPrivate = 4
	kdKernarg = 8
	kdEntry   = 16
	kdRsrc3   = 44
	kdRsrc1   = 48
	kdRsrc2   = 52
	kdProps   = 56
)

// kdFields lists every .amdhsa_ directive LLVM 19 accepts, with the
// error it gives on GFX8 and GFX9 for the ones those lack.
var kdFields = map[string]kdField{
	".amdhsa_group_segment_fixed_size":                     {off: kdGroup, width: 32},
	".amdhsa_private_segment_fixed_size":                   {off: kdPrivate, width: 32},
	".amdhsa_kernarg_size":                                 {off: kdKernarg, width: 32},
	".amdhsa_user_sgpr_private_segment_buffer":             {off: kdProps, shift: 0, width: 1, userSGPRs: 4},
	".amdhsa_user_sgpr_dispatch_ptr":                       {off: kdProps, shift: 1, width: 1, userSGPRs: 2},
	".amdhsa_user_sgpr_queue_ptr":                          {off: kdProps, shift: 2, width: 1, userSGPRs: 2},
	".amdhsa_user_sgpr_kernarg_segment_ptr":                {off: kdProps, shift: 3, width: 1, userSGPRs: 2},
	".amdhsa_user_sgpr_dispatch_id":                        {off: kdProps, shift: 4, width: 1, userSGPRs: 2},
	".amdhsa_user_sgpr_flat_scratch_init":                  {off: kdProps, shift: 5, width: 1, userSGPRs: 2},
	".amdhsa_user_sgpr_private_segment_size":               {off: kdProps, shift: 6, width: 1, userSGPRs: 1},
	".amdhsa_uses_dynamic_stack":                           {off: kdProps, shift: 11, width: 1},
	".amdhsa_system_sgpr_private_segment_wavefront_offset": {off: kdRsrc2, shift: 0, width: 1},
	".amdhsa_system_sgpr_workgroup_id_x":                   {off: kdRsrc2, shift: 7, width: 1},
	".amdhsa_system_sgpr_workgroup_id_y":                   {off: kdRsrc2, shift: 8, width: 1},
	".amdhsa_system_sgpr_workgroup_id_z":                   {off: kdRsrc2, shift: 9, width: 1},
	".amdhsa_system_sgpr_workgroup_info":                   {off: kdRsrc2, shift: 10, width: 1},
	".amdhsa_system_vgpr_workitem_id":                      {off: kdRsrc2, shift: 11, width: 2},
	".amdhsa_float_round_mode_32":                          {off: kdRsrc1, shift: 12, width: 2},
	".amdhsa_float_round_mode_16_64":                       {off: kdRsrc1, shift: 14, width: 2},
	".amdhsa_float_denorm_mode_32":                         {off: kdRsrc1, shift: 16, width: 2},
	".amdhsa_float_denorm_mode_16_64":                      {off: kdRsrc1, shift: 18, width: 2},
	".amdhsa_dx10_clamp":                                   {off: kdRsrc1, shift: 21, width: 1},
	".amdhsa_ieee_mode":                                    {off: kdRsrc1, shift: 23, width: 1},
	".amdhsa_fp16_overflow":                                {off: kdRsrc1, shift: 26, width: 1, minMajor: 9},
	".amdhsa_exception_fp_ieee_invalid_op":                 {off: kdRsrc2, shift: 24, width: 1},
	".amdhsa_exception_fp_denorm_src":                      {off: kdRsrc2, shift: 25, width: 1},
	".amdhsa_exception_fp_ieee_div_zero":                   {off: kdRsrc2, shift: 26, width: 1},
	".amdhsa_exception_fp_ieee_overflow":                   {off: kdRsrc2, shift: 27, width: 1},
	".amdhsa_exception_fp_ieee_underflow":                  {off: kdRsrc2, shift: 28, width: 1},
	".amdhsa_exception_fp_ieee_inexact":                    {off: kdRsrc2, shift: 29, width: 1},
	".amdhsa_exception_int_div_zero":                       {off: kdRsrc2, shift: 30, width: 1},
	".amdhsa_user_sgpr_count":                              {off: -1},
	".amdhsa_next_free_vgpr":                               {off: -1},
	".amdhsa_next_free_sgpr":                               {off: -1},
	".amdhsa_reserve_vcc":                                  {off: -1},
	".amdhsa_reserve_flat_scratch":                         {off: -1},
	".amdhsa_reserve_xnack_mask":                           {off: -1},
	".amdhsa_enable_private_segment":                       {err: "directive is not supported without architected flat scratch"},
	".amdhsa_user_sgpr_kernarg_preload_length":             {err: "directive requires gfx90a+"},
	".amdhsa_user_sgpr_kernarg_preload_offset":             {err: "directive requires gfx90a+"},
	".amdhsa_accum_offset":                                 {err: "directive requires gfx90a+"},
	".amdhsa_tg_split":                                     {err: "directive requires gfx90a+"},
	".amdhsa_wavefront_size32":                             {err: "directive requires gfx10+"},
	".amdhsa_workgroup_processor_mode":                     {err: "directive requires gfx10+"},
	".amdhsa_memory_ordered":                               {err: "directive requires gfx10+"},
	".amdhsa_forward_progress":                             {err: "directive requires gfx10+"},
	".amdhsa_shared_vgpr_count":                            {err: "directive requires gfx10+"},
	".amdhsa_inst_pref_size":                               {err: "directive requires gfx11+"},
	".amdhsa_round_robin_scheduling":                       {err: "directive requires gfx12+"},
}

// kdParser gathers one .amdhsa_kernel block.
type kdParser struct {
	name      string
	line, col int
	seen      map[string]bool
	kd        [64]byte
	userSGPRs int64
	explicit  int64 // .amdhsa_user_sgpr_count, or -1
	vgpr      int64
	sgpr      int64
	sgprLine  int
	sgprCol   int
	vgprLine  int
	vgprCol   int
	vcc, flat bool
	xnack     bool
}

// dirKernel starts an .amdhsa_kernel block with the defaults of
// getDefaultAmdhsaKernelDescriptor.
func (a *assembler) dirKernel(sc *scanner) error {
	name := sc.ident()
	if name == "" {
		return errAt(1, "unknown directive")
	}
	if err := sc.expectEOL(); err != nil {
		return err
	}
	p := &kdParser{name: name, line: a.line, col: 1, seen: map[string]bool{}, explicit: -1,
		vcc: true, flat: true, xnack: a.tgt.xnackEnabled()}
	put32(p.kd[:], kdRsrc1, 3<<18|1<<21|1<<23) // denorm 16/64 flush none, dx10 clamp, IEEE
	put32(p.kd[:], kdRsrc2, 1<<7)              // workgroup ID x
	a.kd = p
	return nil
}

// kdLine handles one line inside an .amdhsa_kernel block. After an error
// the block is abandoned and its remaining lines read as ordinary
// statements, as llvm-mc does.
func (a *assembler) kdLine(s string) {
	sc := &scanner{s: s}
	if sc.eol() {
		return
	}
	col := sc.col()
	id := sc.ident()
	if strings.EqualFold(id, ".end_amdhsa_kernel") {
		sc.skipSpace()
		if err := a.endKernel(len(strings.TrimRight(s, " \t\r")) + 1); err != nil {
			a.report(err, col)
		}
		a.kd = nil
		return
	}
	if err := a.kdDirective(id, col, sc); err != nil {
		a.report(err, col)
		a.kd = nil
	}
}

// kdDirective parses one .amdhsa_ directive of the block.
func (a *assembler) kdDirective(id string, col int, sc *scanner) error {
	p := a.kd
	f, ok := kdFields[id]
	if !ok {
		return errAt(col, "unknown .amdhsa_kernel directive")
	}
	if sc.skipSpace(); p.seen[id] {
		return errAt(sc.col(), ".amdhsa_ directives cannot be repeated")
	}
	p.seen[id] = true
	sc.skipSpace()
	vcol := sc.col()
	v, err := sc.absExpr(a.lookup)
	if err != nil {
		return err
	}
	if err := sc.expectEOL(); err != nil {
		return err
	}
	if f.err != "" {
		return errAt(col, "%s", f.err)
	}
	if f.minMajor == 9 && a.tgt.gen != isa.GFX9 {
		return errAt(col, "directive requires gfx9+")
	}
	bit := func() (bool, error) {
		if v != 0 && v != 1 {
			return false, errAt(vcol, "value out of range")
		}
		return v == 1, nil
	}
	switch id {
	case ".amdhsa_user_sgpr_count":
		if v < 0 || v > 1<<32-1 {
			return errAt(vcol, "value out of range")
		}
		p.explicit = v
		return nil
	case ".amdhsa_next_free_vgpr":
		p.vgpr, p.vgprLine, p.vgprCol = v, a.line, vcol
		return nil
	case ".amdhsa_next_free_sgpr":
		p.sgpr, p.sgprLine, p.sgprCol = v, a.line, vcol
		return nil
	case ".amdhsa_reserve_vcc":
		p.vcc, err = bit()
		return err
	case ".amdhsa_reserve_flat_scratch":
		p.flat, err = bit()
		return err
	case ".amdhsa_reserve_xnack_mask":
		if p.xnack, err = bit(); err != nil {
			return err
		}
		if p.xnack != a.tgt.xnackEnabled() {
			return errAt(col, ".amdhsa_reserve_xnack_mask does not match target id")
		}
		return nil
	}
	if v < 0 || f.width < 64 && uint64(v) >= 1<<f.width {
		return errAt(vcol, "value out of range")
	}
	if f.width == 32 {
		put32(p.kd[:], f.off, uint32(v))
		return nil
	}
	if f.userSGPRs > 0 && v == 1 {
		p.userSGPRs += f.userSGPRs
	}
	mask := uint32(1)<<f.width - 1
	if f.off == kdProps {
		w := binary.LittleEndian.Uint16(p.kd[kdProps:])
		w = w&^uint16(mask<<f.shift) | uint16(uint32(v)<<f.shift)
		binary.LittleEndian.PutUint16(p.kd[kdProps:], w)
		return nil
	}
	w := binary.LittleEndian.Uint32(p.kd[f.off:])
	put32(p.kd[:], f.off, w&^(mask<<f.shift)|uint32(v)<<f.shift)
	return nil
}

// sgprInitBug lists the processors with LLVM's FeatureSGPRInitBug, whose
// kernels always allocate 96 SGPRs.
var sgprInitBug = map[string]bool{"gfx802": true, "gfx805": true}

// endKernel checks the block, computes the register granules and user
// SGPR count, and emits the descriptor and its symbol. col is the column
// just past .end_amdhsa_kernel, where llvm-mc reports what is missing.
func (a *assembler) endKernel(col int) error {
	p := a.kd
	for _, req := range []string{".amdhsa_next_free_vgpr", ".amdhsa_next_free_sgpr"} {
		if !p.seen[req] {
			return errAt(col, "%s directive is required", req)
		}
	}
	// calculateGPRBlocks.
	addressable := int64(102)
	if sgprInitBug[a.tgt.proc] {
		addressable = 96
	}
	sgprs := p.sgpr
	if !sgprInitBug[a.tgt.proc] && uint64(sgprs) > uint64(addressable) {
		a.line = p.sgprLine
		return errAt(p.sgprCol, "value out of range")
	}
	extra := int64(0)
	if p.vcc {
		extra = 2
	}
	if p.xnack {
		extra = 4
	}
	if p.flat {
		extra = 6
	}
	sgprs += extra
	if sgprInitBug[a.tgt.proc] {
		if uint64(sgprs) > uint64(addressable) {
			a.line = p.sgprLine
			return errAt(p.sgprCol, "value out of range")
		}
		sgprs = 96
	}
	blocks := func(n, granule int64) int64 { return (max(1, n)+granule-1)/granule - 1 }
	vb, sb := blocks(p.vgpr, 4), blocks(sgprs, 8)
	if vb < 0 || vb > 63 {
		a.line = p.vgprLine
		return errAt(p.vgprCol, "value out of range")
	}
	if sb < 0 || sb > 15 {
		a.line = p.sgprLine
		return errAt(p.sgprCol, "value out of range")
	}
	r1 := binary.LittleEndian.Uint32(p.kd[kdRsrc1:])
	put32(p.kd[:], kdRsrc1, r1&^0x3ff|uint32(vb)|uint32(sb)<<6)
	users := p.userSGPRs
	if p.explicit >= 0 {
		if users > p.explicit {
			return errAt(col, "amdgpu_user_sgpr_count smaller than than implied by enabled user SGPRs")
		}
		users = p.explicit
	}
	if users > 31 {
		return errAt(col, "too many user SGPRs enabled")
	}
	r2 := binary.LittleEndian.Uint32(p.kd[kdRsrc2:])
	put32(p.kd[:], kdRsrc2, r2&^(0x1f<<1)|uint32(users)<<1)

	if !a.holdsData(col) {
		return nil
	}
	k := &kernel{name: p.name, kd: p.kd, sec: a.cur, off: len(a.cur.data), line: p.line,
		nextVGPR: p.vgpr, nextSGPR: p.sgpr + extra,
		group: le32(p.kd[:], kdGroup), private: le32(p.kd[:], kdPrivate), kernarg: le32(p.kd[:], kdKernarg),
		dynStack: p.kd[kdProps+1]&(1<<3) != 0, wavefront: 64}
	a.cur.data = append(a.cur.data, p.kd[:]...)
	a.kernels = append(a.kernels, k)
	// The descriptor symbol copies the kernel symbol's binding and
	// visibility; a kernel symbol of default visibility becomes protected.
	ks := a.sym(p.name)
	kds := a.sym(p.name + ".kd")
	if kds.defined {
		return errAt(p.col, "invalid symbol redefinition")
	}
	kds.defined, kds.line = true, p.line
	kds.val = value{int64(k.off), a.cur}
	kds.global, kds.weak, kds.vis = ks.global, ks.weak, ks.vis
	kds.typ, kds.size, kds.hasSize = sttObject, 64, true
	if ks.vis == stvDefault {
		ks.vis = stvProtected
	}
	return nil
}

func put32(b []byte, off int, v uint32) { binary.LittleEndian.PutUint32(b[off:], v) }
func le32(b []byte, off int) uint32     { return binary.LittleEndian.Uint32(b[off:]) }
