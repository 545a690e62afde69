package emu

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// dsTestRegs are the registers the DS words below name: ADDR v1, DATA0
// v[8:11], DATA1 v[12:15], VDST v[20:23].
const (
	dsTestAddr  = 1
	dsTestData0 = 8
	dsTestData1 = 12
	dsTestVdst  = 20
)

// dsForms returns every LDS (non-GDS) DS form of target t by name.
func dsForms(t isa.Target) map[string]*isa.Form {
	forms := map[string]*isa.Form{}
	for opc := 0; opc < 256; opc++ {
		f := isa.LookupForm(t, isa.EncDS, uint16(opc))
		if f == nil {
			continue
		}
		n := f.Op.String()
		if strings.Contains(n, "gws") || strings.HasPrefix(n, "ds_gds") || n == "ds_ordered_count" {
			continue
		}
		forms[n] = f
	}
	return forms
}

// dsWords encodes form f with offset fields off0, off1 and the registers
// above, then s_waitcnt lgkmcnt(0) and s_endpgm.
func dsWords(t isa.Target, f *isa.Form, off0, off1 uint8) []byte {
	w0 := 0x36<<26 | uint32(f.Opcode)<<17 | uint32(off1)<<8 | uint32(off0)
	var w1 uint32
	for _, s := range f.Operands {
		switch s.Field {
		case isa.FieldADDR:
			w1 |= dsTestAddr
		case isa.FieldDATA0:
			w1 |= dsTestData0 << 8
		case isa.FieldDATA1:
			w1 |= dsTestData1 << 16
		case isa.FieldVDST:
			w1 |= dsTestVdst << 24
		}
	}
	waitcnt := uint32(0xbf8cc07f)
	if t == isa.GFX8 {
		waitcnt = 0xbf8c007f
	}
	var b []byte
	for _, x := range []uint32{w0, w1, waitcnt, 0xbf810000} {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}

// dsCase is one random DS step: the instruction and the wave's and LDS's
// state before it.
type dsCase struct {
	target   isa.Target
	name     string
	code     []byte
	ldsSize  uint32
	m0, exec uint32
	exechi   uint32
	v        map[int][64]uint32 // VGPRs set
	pages    map[int][]byte     // LDS pages written before the step (others never touched)
}

func (c *dsCase) String() string {
	return fmt.Sprintf("%v %s (words % x) lds %#x m0 %#x exec %#x", c.target, c.name, c.code[:8], c.ldsSize, c.m0, uint64(c.exechi)<<32|uint64(c.exec))
}

// machine builds the case's machine; history > 0 journals every step,
// noFast sends every DS step through the general path.
func (c *dsCase) machine(t *testing.T, history int64, noFast bool) *Machine {
	t.Helper()
	mcpu := "gfx900"
	if c.target == isa.GFX8 {
		mcpu = "gfx803"
	}
	p := DecodeProgramWith(c.target, isa.FeaturesOf(mcpu), 0, c.code)
	mem := core.NewMemory()
	if err := mem.Map("lds", core.SharedApertureBase, 1<<16, false); err != nil {
		t.Fatal(err)
	}
	for k, b := range c.pages {
		if err := mem.Write(core.SharedApertureBase+uint64(k)*core.PageSize, b); err != nil {
			t.Fatal(err)
		}
	}
	cfg := core.DefaultConfig(c.target)
	cfg.HistoryBytes = history
	m := NewMachine(p, mem, cfg)
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(c.ldsSize), Cfg: VMemConfig{LDSLatency: 64}, Ops: map[*isa.Inst]*ref.VmOp{}, NoFast: noFast}
	for r, vals := range c.v {
		for l, x := range vals {
			m.SetVGPR(r, l, x)
		}
	}
	m.SetExec(uint64(c.exechi)<<32 | uint64(c.exec))
	if err := m.SetScalar(int(isa.M0), c.m0); err != nil {
		t.Fatal(err)
	}
	return m
}

// randDSCase draws a case for one of the named forms.
func randDSCase(r *rand.Rand, forms map[isa.Target]map[string]*isa.Form, names map[isa.Target][]string) *dsCase {
	c := &dsCase{target: isa.GFX9, v: map[int][64]uint32{}, pages: map[int][]byte{}}
	if r.IntN(3) == 0 {
		c.target = isa.GFX8
	}
	ns := names[c.target]
	c.name = ns[r.IntN(len(ns))]
	f := forms[c.target][c.name]
	var off0, off1 uint8
	switch r.IntN(4) {
	case 0: // no offset
	case 1:
		off0 = uint8(r.IntN(8))
		off1 = uint8(r.IntN(8))
	default:
		off0, off1 = uint8(r.Uint32()), uint8(r.Uint32())
	}
	c.code = dsWords(c.target, f, off0, off1)
	c.ldsSize = []uint32{64 << 10, 32 << 10, 1 << 10, 4100, 8192, 6000}[r.IntN(6)]
	c.m0 = 0xffffffff
	if r.IntN(3) == 0 {
		c.m0 = r.Uint32N(c.ldsSize + 64) // GFX8: the M0 range check; GFX9 addtid: M0[15:0]
	}
	switch r.IntN(4) {
	case 0:
		c.exec, c.exechi = ^uint32(0), ^uint32(0)
	case 1: // a few lanes
		for range 1 + r.IntN(4) {
			l := r.IntN(64)
			if l < 32 {
				c.exec |= 1 << l
			} else {
				c.exechi |= 1 << (l - 32)
			}
		}
	default: // holes
		c.exec, c.exechi = r.Uint32()&r.Uint32()|r.Uint32()&1, r.Uint32()|r.Uint32()
	}
	// Addresses: dwords in range, unaligned, near page and range ends, a
	// few lanes sharing addresses, wild values.
	var addr [64]uint32
	shared := r.Uint32N(c.ldsSize) &^ 3
	for l := range addr {
		var a uint32
		switch r.IntN(10) {
		case 0, 1, 2:
			a = r.Uint32N(c.ldsSize) &^ 3
		case 3:
			a = r.Uint32N(c.ldsSize)
		case 4:
			a = uint32(core.PageSize*(1+r.IntN(15))) - uint32(r.IntN(12)) // straddles a page
		case 5:
			a = c.ldsSize - uint32(r.IntN(24))
		case 6:
			a = min(c.m0, 1<<16) - uint32(r.IntN(16))
		case 7:
			a = shared
		case 8:
			a = uint32(4 * l * (1 + r.IntN(3)))
		default:
			a = r.Uint32()
		}
		addr[l] = a
	}
	if r.IntN(2) == 0 {
		addr = waveDSAddrs(r, c.ldsSize)
	}
	c.v[dsTestAddr] = addr
	for reg := dsTestData0; reg < dsTestData1+4; reg++ {
		var vals [64]uint32
		for l := range vals {
			switch r.IntN(4) {
			case 0:
				vals[l] = r.Uint32N(16) // small: inc/dec wrap, cmpst matches
			case 1:
				vals[l] = 0x3f800000 + r.Uint32N(4) // floats near 1
			default:
				vals[l] = r.Uint32()
			}
		}
		c.v[reg] = vals
	}
	var vdst [64]uint32
	for l := range vdst {
		vdst[l] = 0xdead0000 | uint32(l)
	}
	for reg := dsTestVdst; reg < dsTestVdst+4; reg++ {
		c.v[reg] = vdst
	}
	for k := 0; k < 16; k++ {
		if r.IntN(4) == 0 {
			continue // never written: reads as zero
		}
		b := make([]byte, core.PageSize)
		for i := range b {
			switch r.IntN(3) {
			case 0:
				b[i] = byte(r.IntN(16)) // small values meet cmpst/inc/dec limits
			default:
				b[i] = byte(r.Uint32())
			}
		}
		c.pages[k] = b
	}
	return c
}

// waveDSAddrs draws addresses of a kernel's usual shapes: base +
// stride·lane for a dword, 8-byte or 16-byte stride (or all lanes one
// address, or descending), within one page or across pages, sometimes with
// one lane moved elsewhere (another in-range dword, an unaligned byte, a
// page straddle, past the end).
func waveDSAddrs(r *rand.Rand, size uint32) [64]uint32 {
	stride := []int32{0, 1, 2, 4, 8, 16, -4}[r.IntN(7)]
	base := r.Uint32N(size) &^ 15
	if r.IntN(2) == 0 {
		base = r.Uint32N(min(size, 1024)) &^ 15
	}
	var a [64]uint32
	for l := range a {
		a[l] = uint32(int32(base)+stride*int32(l)) % size
	}
	if r.IntN(3) == 0 {
		l := r.IntN(64)
		a[l] = []uint32{r.Uint32N(size) &^ 3, a[l] + 1, core.PageSize - 2, size - 2, size}[r.IntN(5)]
	}
	return a
}

// TestDSFastMatchesGeneral runs random DS steps three times: with history
// off, where the fast path of ds_fast.go runs; with history off and noFast,
// where ds_exec.go's general path runs unjournaled; and journaled step by
// step (the general path with its records). Registers, counters, the clock
// and all of LDS must agree. The forms cover every LDS DS operation of both
// targets; the fast ones are drawn most often.
func TestDSFastMatchesGeneral(t *testing.T) {
	forms := map[isa.Target]map[string]*isa.Form{}
	names := map[isa.Target][]string{}
	fastSeen := map[string]bool{}
	for _, tg := range []isa.Target{isa.GFX8, isa.GFX9} {
		forms[tg] = dsForms(tg)
		for n := range forms[tg] {
			names[tg] = append(names[tg], n)
			if dsFastForm(n) {
				for range 4 {
					names[tg] = append(names[tg], n)
				}
			}
		}
		slices.Sort(names[tg])
		if len(names[tg]) < 50 {
			t.Fatalf("%v: only %d DS forms", tg, len(names[tg]))
		}
	}
	n := 3000
	if testing.Short() {
		n = 500
	}
	r := rand.New(rand.NewPCG(5, 2026))
	for i := 0; i < n; i++ {
		c := randDSCase(r, forms, names)
		fm := c.machine(t, 0, false)
		plain := c.machine(t, 0, true)
		general := c.machine(t, 1<<20, false)
		_, ferr := fm.Run(context.Background(), 10)
		_, perr := plain.Run(context.Background(), 10)
		var gerr error
		for k := 0; k < 3 && gerr == nil; k++ {
			_, gerr = general.Step()
		}
		if gerr == core.ErrEnded {
			gerr = nil
		}
		if fmt.Sprint(ferr) != fmt.Sprint(gerr) || fmt.Sprint(perr) != fmt.Sprint(gerr) {
			t.Fatalf("case %d %v: fast err %v, unjournaled general err %v, journaled err %v", i, c, ferr, perr, gerr)
		}
		if d := diffDSMachines(fm, general); d != "" {
			t.Fatalf("case %d %v: fast and journaled general paths differ: %s", i, c, d)
		}
		if d := diffDSMachines(plain, general); d != "" {
			t.Fatalf("case %d %v: unjournaled and journaled general paths differ: %s", i, c, d)
		}
		for _, op := range fm.VectorMemory.(*ref.VMemUnit).Ops {
			if op == nil {
				continue // not modelled: both paths stopped with the same error
			}
			if fast.DsFastOK(op) != dsFastForm(c.name) {
				t.Fatalf("%s: fast path %v, want %v", c.name, fast.DsFastOK(op), dsFastForm(c.name))
			}
			if fast.DsFastOK(op) {
				fastSeen[c.name] = true
			}
		}
	}
	for _, must := range []string{"ds_read_b32", "ds_read2_b32", "ds_write_b32", "ds_write2_b32", "ds_add_u32",
		"ds_add_rtn_u32", "ds_read_b64", "ds_read_b128", "ds_read_u8", "ds_read_i16", "ds_write_b8", "ds_write_b64",
		"ds_read_addtid_b32", "ds_write_addtid_b32", "ds_read_u16_d16_hi", "ds_write_b16_d16_hi", "ds_add_rtn_u64"} {
		if !fastSeen[must] {
			t.Errorf("%s was never drawn", must)
		}
	}
}

// dsFastForm reports whether the fast path handles the named form.
func dsFastForm(n string) bool {
	switch {
	case strings.Contains(n, "src2"), strings.Contains(n, "wrxchg2"), strings.Contains(n, "condxchg"),
		strings.Contains(n, "permute"), n == "ds_swizzle_b32", n == "ds_append", n == "ds_consume", n == "ds_nop":
		return false
	}
	return true
}

// diffDSMachines describes the first difference between two machines'
// VGPRs, scalar state (counters, clock, PC) and LDS window.
func diffDSMachines(a, b *Machine) string {
	for r := range a.w.V {
		for l := range a.w.V[r] {
			if x, y := a.w.V[r][l], b.w.V[r][l]; x != y {
				return fmt.Sprintf("v%d lane %d: %#x vs %#x", r, l, x, y)
			}
		}
	}
	for i := range a.w.S {
		if x, y := a.w.S[i], b.w.S[i]; x != y {
			return fmt.Sprintf("scalar slot %d: %#x vs %#x", i, x, y)
		}
	}
	pa, pb := make([]byte, 1<<16), make([]byte, 1<<16)
	if err := a.Mem.Read(core.SharedApertureBase, pa); err != nil {
		return err.Error()
	}
	if err := b.Mem.Read(core.SharedApertureBase, pb); err != nil {
		return err.Error()
	}
	for i := range pa {
		if pa[i] != pb[i] {
			return fmt.Sprintf("LDS[%#x]: %#x vs %#x", i, pa[i], pb[i])
		}
	}
	return ""
}

// TestBankCounterMatchesReference compares bankCounter with a direct
// count on random address patterns: per half-wave, per bank, the distinct
// dwords, the worst bank less one.
func TestBankCounterMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 2000; i++ {
		var addrs [2][64]uint32 // up to two addresses per lane
		active := r.Uint64() | uint64(r.IntN(2))*^uint64(0)
		two := r.IntN(2) == 0
		spread := []uint32{64, 512, 4096, 1 << 16}[r.IntN(4)]
		for l := 0; l < 64; l++ {
			addrs[0][l], addrs[1][l] = r.Uint32N(spread), r.Uint32N(spread)
		}
		var b ref.BankCounter
		var ref [2][32]map[uint32]bool
		for m := active; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			for k := 0; k < 1 || two && k < 2; k++ {
				b.Add(l, addrs[k][l])
				bank := addrs[k][l] >> 2 & 31
				if ref[l/32][bank] == nil {
					ref[l/32][bank] = map[uint32]bool{}
				}
				ref[l/32][bank][addrs[k][l]>>2] = true
			}
		}
		want := 0
		for h := range ref {
			worst := 0
			for _, s := range ref[h] {
				worst = max(worst, len(s))
			}
			want += max(worst-1, 0)
		}
		if got := b.Conflicts(); got != want {
			t.Fatalf("case %d: %d extra cycles, want %d", i, got, want)
		}
	}
}

// TestDSFastNoAlloc: with history off, DS steps through the fast path
// allocate nothing (BenchmarkDS's loops).
func TestDSFastNoAlloc(t *testing.T) {
	for _, name := range []string{"ds_read_b32", "ds_write_b32", "ds_read2_b32", "ds_write2_b32", "ds_read_b64",
		"ds_write_b64", "ds_read_u16", "ds_read_b128", "ds_add_u32", "ds_add_rtn_u32", "ds_add_rtn_u64"} {
		m := dsBenchMachine(t, name, 0, 64, false)
		if _, err := m.Run(context.Background(), 10); err != nil { // compiles the op
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(20, func() {
			if _, err := m.Run(context.Background(), 10); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations per loop", name, n)
		}
	}
}
