package isa

import (
	"strings"
	"testing"
)

// TestMemInfo checks the memory facts of representative opcodes, as the
// tables give them through Op.Mem and Inst.Mem.
func TestMemInfo(t *testing.T) {
	for _, tc := range []struct {
		op   Op
		want MemInfo
	}{
		{BUFFER_LOAD_SBYTE, MemInfo{Kind: MemLoad, Size: 1, Signed: true}},
		{BUFFER_LOAD_UBYTE, MemInfo{Kind: MemLoad, Size: 1}},
		{BUFFER_LOAD_SSHORT, MemInfo{Kind: MemLoad, Size: 2, Signed: true}},
		{BUFFER_LOAD_DWORDX3, MemInfo{Kind: MemLoad, Size: 12}},
		{BUFFER_STORE_BYTE_D16_HI, MemInfo{Kind: MemStore, Size: 1, D16: true, D16Hi: true}},
		{BUFFER_LOAD_SBYTE_D16, MemInfo{Kind: MemLoad, Size: 1, Signed: true, D16: true}},
		{BUFFER_LOAD_FORMAT_XY, MemInfo{Kind: MemLoad, Format: true, Comps: 2}},
		{BUFFER_LOAD_FORMAT_D16_HI_X, MemInfo{Kind: MemLoad, D16: true, D16Hi: true, Format: true, Comps: 1}},
		{BUFFER_STORE_FORMAT_D16_XYZW, MemInfo{Kind: MemStore, D16: true, Format: true, Comps: 4}},
		{TBUFFER_STORE_FORMAT_XYZ, MemInfo{Kind: MemStore, Format: true, Comps: 3}},
		{TBUFFER_LOAD_FORMAT_X, MemInfo{Kind: MemLoad, Format: true, Comps: 1}},
		{BUFFER_STORE_LDS_DWORD, MemInfo{Kind: MemStore, Size: 4}},
		{BUFFER_WBINVL1_VOL, MemInfo{Kind: MemCache}},
		{BUFFER_ATOMIC_CMPSWAP_X2, MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomCmpSwap, Ret: RetGLC}},
		{BUFFER_ATOMIC_UMAX, MemInfo{Kind: MemAtomic, Size: 4, Atomic: AtomUMax, Ret: RetGLC}},
		{GLOBAL_LOAD_SHORT_D16_HI, MemInfo{Kind: MemLoad, Size: 2, D16: true, D16Hi: true}},
		{GLOBAL_LOAD_DWORDX4, MemInfo{Kind: MemLoad, Size: 16}},
		{GLOBAL_ATOMIC_DEC_X2, MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomDec, Ret: RetGLC}},
		{SCRATCH_STORE_SHORT, MemInfo{Kind: MemStore, Size: 2}},
		{FLAT_LOAD_SSHORT, MemInfo{Kind: MemLoad, Size: 2, Signed: true}},
		{FLAT_ATOMIC_SWAP, MemInfo{Kind: MemAtomic, Size: 4, Atomic: AtomSwap, Ret: RetGLC}},
		{DS_READ_I8, MemInfo{Kind: MemLoad, Size: 1, Signed: true}},
		{DS_READ_U16_D16_HI, MemInfo{Kind: MemLoad, Size: 2, D16: true, D16Hi: true}},
		{DS_WRITE_B8, MemInfo{Kind: MemStore, Size: 1}},
		{DS_READ_B96, MemInfo{Kind: MemLoad, Size: 12}},
		{DS_READ2ST64_B64, MemInfo{Kind: MemLoad, Size: 8, Two: true, ST64: true}},
		{DS_WRITE2_B32, MemInfo{Kind: MemStore, Size: 4, Two: true}},
		{DS_ADD_U32, MemInfo{Kind: MemAtomic, Size: 4, Atomic: AtomAdd}},
		{DS_MIN_RTN_I64, MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomSMin, Ret: RetAlways}},
		{DS_MAX_RTN_U32, MemInfo{Kind: MemAtomic, Size: 4, Atomic: AtomUMax, Ret: RetAlways}},
		{DS_MAX_F64, MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomFMax}},
		{DS_ADD_RTN_F32, MemInfo{Kind: MemAtomic, Size: 4, Atomic: AtomFAdd, Ret: RetAlways}},
		{DS_CMPST_RTN_F32, MemInfo{Kind: MemAtomic, Size: 4, Atomic: AtomFCmpSt, Ret: RetAlways}},
		{DS_CMPST_B64, MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomCmpSt}},
		{DS_WRXCHG2ST64_RTN_B32, MemInfo{Kind: MemAtomic, Size: 4, Atomic: AtomSwap, Ret: RetAlways, Two: true, ST64: true}},
		{DS_CONDXCHG32_RTN_B64, MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomCondXchg, Ret: RetAlways}},
		{DS_MSKOR_B64, MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomMskor}},
		{DS_RSUB_SRC2_U32, MemInfo{Kind: MemAtomic, Size: 4, Atomic: AtomRsub, Src2: true}},
		{DS_WRITE_SRC2_B64, MemInfo{Kind: MemStore, Size: 8, Src2: true}},
		{DS_READ_ADDTID_B32, MemInfo{Kind: MemLoad, Size: 4, AddTID: true}},
		{DS_SWIZZLE_B32, MemInfo{Kind: MemSwizzle}},
		{DS_BPERMUTE_B32, MemInfo{Kind: MemBPermute}},
		{DS_APPEND, MemInfo{Kind: MemAppend}},
		{S_LOAD_DWORDX16, MemInfo{Kind: MemLoad, Size: 64}},
		{S_BUFFER_LOAD_DWORD, MemInfo{Kind: MemLoad, Size: 4, Buffer: true}},
		{S_SCRATCH_STORE_DWORDX2, MemInfo{Kind: MemStore, Size: 8, Scratch: true}},
		{S_ATOMIC_CMPSWAP, MemInfo{Kind: MemAtomic, Size: 4, Atomic: AtomCmpSwap, Ret: RetGLC}},
		{S_BUFFER_ATOMIC_UMIN_X2, MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomUMin, Ret: RetGLC, Buffer: true}},
		{S_MEMTIME, MemInfo{}},
		{S_DCACHE_INV, MemInfo{}},
		{DS_GWS_BARRIER, MemInfo{Kind: MemGWS}},
		{DS_ORDERED_COUNT, MemInfo{Kind: MemGWS}},
		{DS_NOP, MemInfo{Kind: MemNop}},
		{IMAGE_LOAD, MemInfo{}},
		{EXP, MemInfo{}},
		{V_ADD_F32, MemInfo{}},
		{numOps + 3, MemInfo{}},
	} {
		if got := tc.op.Mem(); got != tc.want {
			t.Errorf("%s: Mem() = %+v, want %+v", tc.op, got, tc.want)
		}
	}
}

// TestMemInfoDecoded checks Inst.Mem and MemInfo.Returns on decoded words.
func TestMemInfoDecoded(t *testing.T) {
	for _, tc := range []struct {
		words  []uint32
		target Target
		text   string
		want   MemInfo
		ret    bool
	}{
		{[]uint32{0xe1844000, 0x80021400}, GFX9, "buffer_atomic_cmpswap_x2 v[20:23], off, s[8:11], 0 glc",
			MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomCmpSwap, Ret: RetGLC}, true},
		{[]uint32{0xe1840000, 0x80021400}, GFX9, "buffer_atomic_cmpswap_x2 v[20:23], off, s[8:11], 0",
			MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomCmpSwap, Ret: RetGLC}, false},
		{[]uint32{0xdc948000, 0x287f000a}, GFX9, "global_load_short_d16_hi v40, v[10:11], off",
			MemInfo{Kind: MemLoad, Size: 2, D16: true, D16Hi: true}, false},
		{[]uint32{0xd97c0000, 0x28000000}, GFX8, "ds_append v40",
			MemInfo{Kind: MemAppend}, false},
		{[]uint32{0xd8c00000, 0x2800140a}, GFX9, "ds_add_rtn_u64 v[40:41], v10, v[20:21]",
			MemInfo{Kind: MemAtomic, Size: 8, Atomic: AtomAdd, Ret: RetAlways}, true},
	} {
		var b []byte
		for _, w := range tc.words {
			b = append(b, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
		}
		in, err := Decode(b, tc.target)
		if err != nil {
			t.Errorf("%x: %v", tc.words, err)
			continue
		}
		if s := in.String(); s != tc.text {
			t.Errorf("%x: decoded %q, want %q", tc.words, s, tc.text)
		}
		if got := in.Mem(); got != tc.want {
			t.Errorf("%s: Mem() = %+v, want %+v", tc.text, got, tc.want)
		}
		if got := in.Mem().Returns(in.Mods.GLC); got != tc.ret {
			t.Errorf("%s: Returns(%v) = %v, want %v", tc.text, in.Mods.GLC, got, tc.ret)
		}
	}
}

// TestMemInfoAgreesWithRows checks every memory row's facts against what
// the rest of the row says: flag words load, store and atomic against the
// kind, the data operand's width against Size and Comps, and the
// vdst-with-glc rule of FLAT atomics against Ret.
func TestMemInfoAgreesWithRows(t *testing.T) {
	for i := range forms {
		f := &forms[i]
		switch f.Enc {
		case EncDS, EncMUBUF, EncMTBUF, EncFLAT:
		case EncSMEM:
			continue // TestMemInfoSMEM
		default:
			if f.Op.Mem() != (MemInfo{}) {
				t.Errorf("%s (%s): memory facts %+v", f.Mnemonic, f.Enc, f.Op.Mem())
			}
			continue
		}
		m := f.Op.Mem()
		if m.Kind == MemNone {
			t.Errorf("%s: no memory kind", f.Mnemonic)
		}
		for _, c := range []struct {
			flag Flags
			kind MemKind
		}{{FlagLoad, MemLoad}, {FlagStore, MemStore}, {FlagAtomic, MemAtomic}} {
			if f.Flags.Has(c.flag) && m.Kind != c.kind {
				t.Errorf("%s: flag %s but kind %s", f.Mnemonic, c.flag, m.Kind)
			}
		}
		if m.D16 != (f.Flags.Has(FlagD16) || f.Flags.Has(FlagD16Hi)) || m.D16Hi != f.Flags.Has(FlagD16Hi) ||
			m.Format != f.Flags.Has(FlagFormat) || m.Two != f.Flags.Has(FlagOffset2) {
			t.Errorf("%s: facts %+v disagree with flags %s", f.Mnemonic, m, f.Flags)
		}
		if m.Format != (m.Comps != 0) || m.Format && m.Size != 0 {
			t.Errorf("%s: format %v with comps %d, size %d", f.Mnemonic, m.Format, m.Comps, m.Size)
		}
		if (m.Kind == MemAtomic) != (m.Atomic != AtomNone) || m.Ret != RetNever && m.Kind != MemAtomic {
			t.Errorf("%s: kind %s, atomic %s, ret %s", f.Mnemonic, m.Kind, m.Atomic, m.Ret)
		}
		if m.Kind == MemAtomic {
			want := RetGLC // buffer and flat: the old value comes back only with glc
			switch {
			case f.Flags.Has(FlagRet):
				want = RetAlways
			case f.Enc == EncDS:
				want = RetNever
			}
			if m.Ret != want {
				t.Errorf("%s: ret %s, want %s", f.Mnemonic, m.Ret, want)
			}
		}
		if m.Signed && m.Size > 2 {
			t.Errorf("%s: signed %d-byte access", f.Mnemonic, m.Size)
		}
		// The register data moves through (vdata/vdst/data0) is as wide as the
		// facts say, for the accesses whose data is in VGPRs.
		field := FieldVDATA
		switch {
		case f.Enc == EncDS && m.Kind == MemLoad:
			field = FieldVDST
		case f.Enc == EncDS:
			field = FieldDATA0
		case f.Enc == EncFLAT && m.Kind == MemLoad:
			field = FieldVDST
		}
		want := 0
		switch {
		case m.Src2, m.Kind != MemLoad && m.Kind != MemStore && m.Kind != MemAtomic, f.Flags.Has(FlagLDSOnly):
		case m.Format && m.D16 && f.Operands[0].Width != uint8(m.Comps):
			want = (int(m.Comps) + 1) / 2 // GFX9 and gfx810 pack two per dword
		case m.Format:
			want = int(m.Comps)
		case m.D16:
			want = 1
		default:
			want = max(1, int(m.Size)/4)
			if m.Atomic == AtomCmpSwap {
				want *= 2
			}
			if m.Two && f.Enc == EncDS && m.Kind == MemLoad {
				want *= 2
			}
		}
		if want == 0 {
			continue
		}
		found := false
		for _, o := range f.Operands {
			if o.Field == field {
				found = true
				if int(o.Width) != want {
					t.Errorf("%s: %s is %d dwords, facts imply %d", f.Mnemonic, field, o.Width, want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no %s operand", f.Mnemonic, field)
		}
		// Sign extension is what LLVM's names say (sbyte, sshort, i8, i16).
		signedName := strings.Contains(f.Mnemonic, "_sbyte") || strings.Contains(f.Mnemonic, "_sshort") ||
			strings.Contains(f.Mnemonic, "_i8") || strings.Contains(f.Mnemonic, "_i16")
		if m.Signed != signedName {
			t.Errorf("%s: signed %v", f.Mnemonic, m.Signed)
		}
	}
}

// TestMemHarvest regenerates tables/mem.txt, memory fact words included,
// with the harvester and LLVM 19 and checks that it equals the committed
// table.
func TestMemHarvest(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	checkHarvest(t, "mem")
}
