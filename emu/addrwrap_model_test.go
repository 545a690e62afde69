package emu

import (
	"math/big"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// The model FuzzAddressNearEdges checks the emulator against: each memory
// kind's addresses worked out from the registers the test set, as the ISA
// describes them (64-bit address adders wrap, 32-bit offsets wrap), and
// whether each byte is mapped decided with big integers against the
// layout's own list of mappings, never through Memory.

// Memory kinds (awKind.mode).
const (
	awFlat    = iota // FLAT and GLOBAL with a 64-bit vaddr: v[2:3] + offset
	awGlobalS        // GLOBAL with saddr: s[6:7] + v2 + offset
	awScratch        // SCRATCH: v2 + offset, dwords interleaved over the lanes
	awBuf            // MUBUF: the V# in s[12:15], SOFFSET s16, v2 (and v3)
	awDS             // DS: v2 + offset in the work-group's LDS
	awSMEM           // S_LOAD, S_STORE: s[4:5] + offset
	awSBuf           // S_BUFFER_LOAD: the V# in s[12:15] + offset
)

// awKind is one instruction of a memory kind: its encoding and what the
// model needs of it.
type awKind struct {
	asm, enc     string
	mode         int
	size         int   // bytes per lane (per part for DS)
	off          int64 // the instruction's offset (ds_write2: offset1 in bytes)
	store        bool
	atomic       bool // an add without return
	offen, idxen bool
	two          bool // ds_write2_b32: a second part at off
}

var awKinds = []awKind{
	{asm: "flat_load_dword v4, v[2:3]", enc: "00 00 50 dc 02 00 00 04", mode: awFlat, size: 4},
	{asm: "flat_store_dword v[2:3], v4", enc: "00 00 70 dc 02 04 00 00", mode: awFlat, size: 4, store: true},
	{asm: "flat_load_dwordx2 v[4:5], v[2:3] offset:4", enc: "04 00 54 dc 02 00 00 04", mode: awFlat, size: 8, off: 4},
	{asm: "flat_store_dwordx4 v[2:3], v[4:7] offset:8", enc: "08 00 7c dc 02 04 00 00", mode: awFlat, size: 16, off: 8, store: true},
	{asm: "flat_load_ubyte v4, v[2:3] offset:1", enc: "01 00 40 dc 02 00 00 04", mode: awFlat, size: 1, off: 1},
	{asm: "flat_atomic_add v[2:3], v4", enc: "00 00 08 dd 02 04 00 00", mode: awFlat, size: 4, atomic: true},
	{asm: "global_load_dword v4, v[2:3], off offset:4", enc: "04 80 50 dc 02 00 7f 04", mode: awFlat, size: 4, off: 4},
	{asm: "global_load_dwordx2 v[4:5], v[2:3], off offset:-8", enc: "f8 9f 54 dc 02 00 7f 04", mode: awFlat, size: 8, off: -8},
	{asm: "global_store_dword v[2:3], v4, off offset:-4", enc: "fc 9f 70 dc 02 04 7f 00", mode: awFlat, size: 4, off: -4, store: true},
	{asm: "global_store_dwordx4 v[2:3], v[4:7], off offset:16", enc: "10 80 7c dc 02 04 7f 00", mode: awFlat, size: 16, off: 16, store: true},
	{asm: "global_store_short v[2:3], v4, off offset:-2", enc: "fe 9f 68 dc 02 04 7f 00", mode: awFlat, size: 2, off: -2, store: true},
	{asm: "global_atomic_add v[2:3], v4, off offset:-4", enc: "fc 9f 08 dd 02 04 7f 00", mode: awFlat, size: 4, off: -4, atomic: true},
	{asm: "global_load_dword v4, v2, s[6:7] offset:-4", enc: "fc 9f 50 dc 02 00 06 04", mode: awGlobalS, size: 4, off: -4},
	{asm: "global_store_dword v2, v4, s[6:7] offset:8", enc: "08 80 70 dc 02 04 06 00", mode: awGlobalS, size: 4, off: 8, store: true},
	{asm: "scratch_load_dword v4, v2, off offset:4", enc: "04 40 50 dc 02 00 7f 04", mode: awScratch, size: 4, off: 4},
	{asm: "scratch_store_dword v2, v4, off offset:4", enc: "04 40 70 dc 02 04 7f 00", mode: awScratch, size: 4, off: 4, store: true},
	{asm: "scratch_load_dwordx2 v[4:5], v2, off offset:-4", enc: "fc 5f 54 dc 02 00 7f 04", mode: awScratch, size: 8, off: -4},
	{asm: "buffer_load_dword v4, off, s[12:15], s16 offset:4", enc: "04 00 50 e0 00 04 03 10", mode: awBuf, size: 4, off: 4},
	{asm: "buffer_load_dword v4, v2, s[12:15], s16 offen offset:4", enc: "04 10 50 e0 02 04 03 10", mode: awBuf, size: 4, off: 4, offen: true},
	{asm: "buffer_load_dword v4, v2, s[12:15], s16 idxen offset:4", enc: "04 20 50 e0 02 04 03 10", mode: awBuf, size: 4, off: 4, idxen: true},
	{asm: "buffer_load_dword v4, v[2:3], s[12:15], s16 idxen offen offset:4", enc: "04 30 50 e0 02 04 03 10", mode: awBuf, size: 4, off: 4, idxen: true, offen: true},
	{asm: "buffer_load_dwordx2 v[4:5], v2, s[12:15], s16 offen offset:4", enc: "04 10 54 e0 02 04 03 10", mode: awBuf, size: 8, off: 4, offen: true},
	{asm: "buffer_store_dword v4, off, s[12:15], s16 offset:4", enc: "04 00 70 e0 00 04 03 10", mode: awBuf, size: 4, off: 4, store: true},
	{asm: "buffer_store_dword v4, v2, s[12:15], s16 offen offset:4", enc: "04 10 70 e0 02 04 03 10", mode: awBuf, size: 4, off: 4, store: true, offen: true},
	{asm: "buffer_store_dword v4, v2, s[12:15], s16 idxen offset:4", enc: "04 20 70 e0 02 04 03 10", mode: awBuf, size: 4, off: 4, store: true, idxen: true},
	{asm: "buffer_store_dword v4, v[2:3], s[12:15], s16 idxen offen offset:4", enc: "04 30 70 e0 02 04 03 10", mode: awBuf, size: 4, off: 4, store: true, idxen: true, offen: true},
	{asm: "buffer_store_dwordx4 v[4:7], v2, s[12:15], s16 offen", enc: "00 10 7c e0 02 04 03 10", mode: awBuf, size: 16, store: true, offen: true},
	{asm: "buffer_store_byte v4, v2, s[12:15], s16 offen offset:3", enc: "03 10 60 e0 02 04 03 10", mode: awBuf, size: 1, off: 3, store: true, offen: true},
	{asm: "s_load_dword s0, s[4:5], -0x8", enc: "02 00 02 c0 f8 ff 1f 00", mode: awSMEM, size: 4, off: -8},
	{asm: "s_load_dword s0, s[4:5], -0x4", enc: "02 00 02 c0 fc ff 1f 00", mode: awSMEM, size: 4, off: -4},
	{asm: "s_load_dwordx2 s[0:1], s[4:5], -0x8", enc: "02 00 06 c0 f8 ff 1f 00", mode: awSMEM, size: 8, off: -8},
	{asm: "s_load_dwordx4 s[0:3], s[4:5], 0x10", enc: "02 00 0a c0 10 00 00 00", mode: awSMEM, size: 16, off: 16},
	{asm: "s_store_dword s0, s[4:5], -0x4", enc: "02 00 42 c0 fc ff 1f 00", mode: awSMEM, size: 4, off: -4, store: true},
	{asm: "s_buffer_load_dword s0, s[12:15], 0x4", enc: "06 00 22 c0 04 00 00 00", mode: awSBuf, size: 4, off: 4},
	{asm: "s_buffer_load_dwordx2 s[0:1], s[12:15], 0x4", enc: "06 00 26 c0 04 00 00 00", mode: awSBuf, size: 8, off: 4},
	{asm: "ds_read_b32 v4, v2 offset:4", enc: "04 00 6c d8 02 00 00 04", mode: awDS, size: 4, off: 4},
	{asm: "ds_write_b32 v2, v4 offset:4", enc: "04 00 1a d8 02 04 00 00", mode: awDS, size: 4, off: 4, store: true},
	{asm: "ds_read_b64 v[4:5], v2 offset:8", enc: "08 00 ec d8 02 00 00 04", mode: awDS, size: 8, off: 8},
	{asm: "ds_write2_b32 v2, v4, v5 offset1:64", enc: "00 40 1c d8 02 04 05 00", mode: awDS, size: 4, off: 256, store: true, two: true},
}

// The layout: its mappings, each filled with awPattern over its first
// fill bytes (the rest reads zero); the LDS window is 1 KiB.
const (
	awMid    = 0x1_0000_0000
	awLDSLim = 1024
)

var awMaps = []struct {
	name             string
	addr, size, fill uint64
}{
	{"low", 0, 0x2000, 0x2000},
	{"mid", awMid, 0x1000, 0x1000},
	{"top", awTop, 0x2000, 0x2000},
	{"lds", core.SharedApertureBase, 0x10000, 0x1000},
}

func awPattern(a uint64) byte { return byte(a * 0x9E3779B97F4A7C15 >> 56) }

var two64 = new(big.Int).Lsh(big.NewInt(1), 64)

// awUnmapped returns the first byte of [a, a+n) that no mapping of the
// layout holds, the end taken with big integers: a byte at 2^64 or above
// exists in no mapping. (The layout's mappings do not touch: an access
// is mapped when one holds it all.)
func awUnmapped(a uint64, n int) (uint64, bool) {
	lo := new(big.Int).SetUint64(a)
	end := new(big.Int).Add(lo, big.NewInt(int64(n)))
	for _, mp := range awMaps {
		mlo := new(big.Int).SetUint64(mp.addr)
		mhi := new(big.Int).Add(mlo, new(big.Int).SetUint64(mp.size))
		if lo.Cmp(mlo) >= 0 && lo.Cmp(mhi) < 0 {
			if end.Cmp(mhi) <= 0 {
				return 0, false
			}
			return new(big.Int).Mod(mhi, two64).Uint64(), true
		}
	}
	return a, true
}

// awRegs are the registers a run starts with.
type awRegs struct {
	exec    uint64
	v       [8][64]uint32
	s       [20]uint32
	scratch uint64 // the scratch base (the unit's and FLAT_SCRATCH)
}

// awPiece is one access of the model: n bytes at addr, performed when in
// range, to or from dword reg of the lane's data.
type awPiece struct {
	addr uint64
	n    int
	in   bool
	reg  int
}

// awPieces lists what lane (-1: the scalar access) of k accesses, in the
// order the emulator checks them.
func awPieces(k *awKind, r *awRegs, lane int) []awPiece {
	var ps []awPiece
	dwords := func(addr func(int) (uint64, bool)) {
		for b := 0; b < k.size; b += 4 {
			a, in := addr(b)
			ps = append(ps, awPiece{addr: a, n: min(4, k.size-b), in: in, reg: b / 4})
		}
	}
	v2, v3 := r.v[2][max(lane, 0)], r.v[3][max(lane, 0)]
	switch k.mode {
	case awFlat:
		ea := uint64(v2) | uint64(v3)<<32 + uint64(k.off)
		dwords(func(b int) (uint64, bool) { return ea + uint64(b), true })
	case awGlobalS:
		ea := uint64(r.s[6]) | uint64(r.s[7])<<32 + uint64(v2) + uint64(k.off)
		dwords(func(b int) (uint64, bool) { return ea + uint64(b), true })
	case awScratch:
		dwords(func(b int) (uint64, bool) {
			p := v2 + uint32(k.off) + uint32(b)
			return r.scratch + uint64(p%4) + 4*uint64(lane) + 256*uint64(p/4), true
		})
	case awBuf:
		base := uint64(r.s[12]) | uint64(r.s[13]&0xffff)<<32
		stride, num, soff := r.s[13]>>16&0x3fff, r.s[14], r.s[16]
		var index, voff uint32
		switch {
		case k.idxen && k.offen:
			index, voff = v2, v3
		case k.idxen:
			index = v2
		case k.offen:
			voff = v2
		}
		dwords(func(b int) (uint64, bool) {
			ao := uint32(k.off) + voff + uint32(b)
			bo := index*stride + ao
			in := index < num && (!k.idxen || ao < stride)
			if stride == 0 {
				in = num >= soff && bo < num-soff
			}
			return base + uint64(soff) + uint64(bo), in
		})
	case awDS:
		for part := range 1 + ref.B2i(k.two) {
			a := v2 + uint32(k.off)
			if k.two {
				a = v2 + uint32(part)*uint32(k.off)
			}
			ps = append(ps, awPiece{addr: core.SharedApertureBase + uint64(a), n: k.size, in: uint64(a)+uint64(k.size) <= awLDSLim, reg: part})
		}
	case awSMEM:
		base := uint64(r.s[4]) | uint64(r.s[5]&0xffff)<<32
		ea := base&^3 + uint64(k.off&^3)
		dwords(func(b int) (uint64, bool) { return ea + uint64(b), true })
	case awSBuf:
		base := uint64(r.s[12]) | uint64(r.s[13]&0xffff)<<32
		size := uint64(r.s[14])
		if stride := uint64(r.s[13] >> 16 & 0x3fff); stride != 0 {
			size *= stride
		}
		dwords(func(b int) (uint64, bool) {
			o := uint64(k.off) + uint64(b)
			return base&^3 + o, o+4 <= size
		})
	}
	return ps
}

// awFault is the fault the model expects of k, or nil: the first piece
// in range, in lane order, that has a byte no mapping holds.
func awFault(k *awKind, r *awRegs) *Fault {
	lanes := []int{-1}
	if k.mode != awSMEM && k.mode != awSBuf {
		lanes = lanes[:0]
		for l := range 64 {
			if r.exec>>l&1 != 0 {
				lanes = append(lanes, l)
			}
		}
	}
	if k.mode == awDS {
		return nil // out-of-range LDS accesses read zero and write nothing
	}
	for _, l := range lanes {
		for _, p := range awPieces(k, r, l) {
			if !p.in {
				continue
			}
			if bad, ok := awUnmapped(p.addr, p.n); ok {
				return &Fault{PC: 0, Lane: l, Addr: bad, Size: p.n, Write: k.store || k.atomic, Reason: "unmapped"}
			}
		}
	}
	return nil
}
