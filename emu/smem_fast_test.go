package emu

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/isa"
)

// GFX9 encodings for the scalar-memory streams.
const (
	smemOpLoad    = 0x00 // s_load_dword; +1 per size step (x2, x4, x8, x16)
	smemOpStore   = 0x10 // s_store_dword; +1 per size step (x2, x4)
	smemOpInv     = 0x20 // s_dcache_inv
	smemOpWb      = 0x21 // s_dcache_wb
	smemOpInvVol  = 0x22 // s_dcache_inv_vol
	smemStreamLen = 48
)

// encSMEM encodes a GFX9 SMEM instruction with an immediate offset (none
// for the cache maintenance operations).
func encSMEM(op, sdata, sbase int, glc bool, off uint32) []byte {
	w0 := uint32(0xc0000000) | uint32(op)<<18 | uint32(sdata)<<6 | uint32(sbase>>1)
	if op < smemOpInv {
		w0 |= 1 << 17
	}
	if glc {
		w0 |= 1 << 16
	}
	return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, w0), off&0x1fffff)
}

// enc32 encodes one instruction dword.
func enc32(w uint32) []byte { return binary.LittleEndian.AppendUint32(nil, w) }

// smemStream is a random stream of scalar loads (mostly of the fast path's
// form, some not: misaligned SDATA, GLC, offsets leaving the allocation or
// crossing a line), stores, cache maintenance, s_waitcnt, reads of loads'
// destinations while in flight, and moves of the base registers.
func smemStream(r *rand.Rand) []byte {
	var text []byte
	for k := 0; k < smemStreamLen; k++ {
		base := 4 + 2*r.IntN(3) // s[4:5], s[6:7], s[8:9]
		off := uint32(4 * r.IntN(0x140))
		switch r.IntN(8) {
		case 0: // unaligned offsets, negative offsets
			off = uint32(r.IntN(0x500)) - 0x40
		case 1:
			off = 4 * uint32(r.IntN(8))
		}
		switch r.IntN(12) {
		case 0, 1, 2, 3, 4:
			size := r.IntN(5)
			n := 1 << size
			sd := 12 + min(n, 4)*r.IntN(4)
			if n == 16 {
				sd = 12 + 4*r.IntN(2)
			}
			if r.IntN(10) == 0 {
				sd++ // misaligned SDATA: the general path's rule
			}
			text = append(text, encSMEM(smemOpLoad+size, sd, base, r.IntN(10) == 0, off)...)
		case 5:
			size := r.IntN(3)
			text = append(text, encSMEM(smemOpStore+size, 12+4*r.IntN(4), base, r.IntN(4) == 0, off)...)
		case 6:
			text = append(text, encSMEM([]int{smemOpInv, smemOpWb, smemOpInvVol}[r.IntN(3)], 0, 0, false, 0)...)
		case 7, 8:
			lgkm := uint32(r.IntN(3))
			text = append(text, enc32(0xbf8c0000|0xc07f&^0xf00|lgkm<<8)...) // s_waitcnt lgkmcnt(lgkm)
		case 9, 10:
			src := 12 + r.IntN(20)
			text = append(text, enc32(0xbe800000|uint32(40+r.IntN(8))<<16|uint32(src))...) // s_mov_b32 s40+, sN
		case 11:
			// s_add_u32 sB, sB, 64 or s_sub_u32 sB, sB, 64
			text = append(text, enc32(0x80000000|uint32(r.IntN(2))<<23|uint32(base)<<16|0xc0<<8|uint32(base))...)
		}
	}
	return append(text, enc32(0xbf810000)...) // s_endpgm
}

// smemRandomMachine is a machine for text whose s[4:5], s[6:7] and s[8:9] point
// into (or near) two allocations, one volatile, with unmapped gaps.
func smemRandomMachine(t isa.Target, text []byte, seed uint64, hist bool) *Machine {
	r := rand.New(rand.NewPCG(seed, seed^0x51ed27))
	cfg := core.DefaultConfig(t)
	cfg.Cache = CacheConfig{Size: 512, Ways: 2}
	if !hist {
		cfg.HistoryBytes = 0
	}
	m := NewMachine(DecodeProgram(t, 0, text), nil, cfg)
	m.Mem.Map("args", 0x10000, 0x400, false)
	m.Mem.Map("packet", 0x10800, 0x100, true)
	data := make([]byte, 0x400)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	m.Mem.Write(0x10000, data)
	m.Mem.Write(0x10800, data[:0x100])
	for _, b := range []int{4, 6, 8} {
		a := []uint64{0x10000, 0x10800, 0x10400 - 0x200, 0x10900 - 0x80, 0x10000 + 4*uint64(r.IntN(0x100))}[r.IntN(5)]
		m.SetSGPR(b, uint32(a))
		m.SetSGPR(b+1, uint32(a>>32))
	}
	for i := 12; i < 40; i++ {
		m.SetSGPR(i, r.Uint32())
	}
	return m
}

// TestSMEMFastMatchesGeneral: Run without history (execSLoad and the
// unjournaled cache, issue and completion paths) leaves exactly the state
// journaled Step leaves, on random streams of scalar loads and stores over
// two allocations and a small cache (evictions, dirty write-backs,
// misses, hits, faults), on both targets.
func TestSMEMFastMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	nfast := 0
	for trial := 0; trial < 600; trial++ {
		target := []isa.Target{isa.GFX9, isa.GFX8}[trial%3/2]
		text := smemStream(r)
		seed := r.Uint64()
		var ms [2]*Machine
		var errs [2]error
		for k, hist := range []bool{true, false} {
			ms[k] = smemRandomMachine(target, text, seed, hist)
			errs[k] = runFor(ms[k], hist, 0)
		}
		if trial == 0 {
			for i := range ms[1].Prog.Code {
				if fast.SloadEligible(&ms[1].Prog.Code[i]) {
					nfast++
				}
			}
		}
		if d := diffRuns(ms, errs, [2]uint64{0x10000, 0x1000}); d != "" {
			t.Fatalf("trial %d (%v): %s", trial, target, d)
		}
	}
	if nfast == 0 {
		t.Fatal("no instruction of the first stream takes the fast path")
	}
}

// sloadMemoStream is a random stream of scalar loads of the fast path's
// form (and some misaligned ones) from s[4:5], s[6:7] and s[8:9], which
// sloadMemoBases keeps in range, a few stores, and s_waitcnt.
func sloadMemoStream(r *rand.Rand) []byte {
	var text []byte
	for k := 0; k < smemStreamLen; k++ {
		base, off := 4+2*r.IntN(3), uint32(4*r.IntN(0x10))
		switch r.IntN(8) {
		case 0:
			text = append(text, encSMEM(smemOpStore, 12+4*r.IntN(4), base, r.IntN(2) == 0, off)...)
		case 1, 2:
			text = append(text, enc32(0xbf8c0000|0xc07f&^0xf00|uint32(r.IntN(3))<<8)...) // s_waitcnt lgkmcnt(0 to 2)
		default:
			size := r.IntN(5)
			sd := 12 + min(1<<size, 4)*r.IntN(2)
			if r.IntN(10) == 0 {
				sd++ // misaligned SDATA: the general path
			}
			text = append(text, encSMEM(smemOpLoad+size, sd, base, false, off)...)
		}
	}
	return append(text, enc32(0xbf810000)...) // s_endpgm
}

// sloadMemoBases points s[4:5], s[6:7] and s[8:9] at lines of
// smemRandomMachine's allocations that sloadMemoStream's accesses stay in.
func sloadMemoBases(m *Machine, r *rand.Rand) {
	for _, b := range []int{4, 6, 8} {
		a := []uint64{0x10000 + 0x40*r.Uint64N(8), 0x10800 + 0x40*r.Uint64N(2)}[r.IntN(2)]
		m.SetSGPR(b, uint32(a))
		m.SetSGPR(b+1, uint32(a>>32))
	}
}

// TestSLoadMemoAcrossWaves: execSLoad's memo, which outlives Reset as a
// grid worker's waves do, leaves each later run exactly as journaled Step
// leaves it: the same stream run again after Reset with the same bases
// (the memo is right) or others (it is stale), with the cache starting
// empty and the memo's lines evicted or in other ways.
func TestSLoadMemoAcrossWaves(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for trial := 0; trial < 300; trial++ {
		target := []isa.Target{isa.GFX9, isa.GFX8}[trial%3/2]
		text := sloadMemoStream(r)
		seed := r.Uint64()
		bases := []uint64{seed, seed, seed, r.Uint64(), seed} // each run's
		var ms [2]*Machine
		var errs [2]error
		for k, hist := range []bool{true, false} {
			ms[k] = smemRandomMachine(target, text, seed, hist)
			for run, b := range bases {
				if run > 0 {
					ms[k].Reset()
				}
				sloadMemoBases(ms[k], rand.New(rand.NewPCG(b, 1)))
				if errs[k] = runFor(ms[k], hist, 0); errs[k] != nil {
					t.Fatalf("trial %d run %d: %v", trial, run, errs[k])
				}
			}
		}
		if d := diffRuns(ms, errs, [2]uint64{0x10000, 0x1000}); d != "" {
			t.Fatalf("trial %d (%v): %s", trial, target, d)
		}
	}
}

// TestSMEMStreamEncodings: the stream's encodings decode to the intended
// operations.
func TestSMEMStreamEncodings(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		want string
	}{
		{encSMEM(smemOpLoad, 12, 4, false, 8), "s_load_dword"},
		{encSMEM(smemOpLoad+4, 16, 6, true, 8), "s_load_dwordx16"},
		{encSMEM(smemOpStore+2, 12, 8, false, 0x40), "s_store_dwordx4"},
		{encSMEM(smemOpInv, 0, 0, false, 0), "s_dcache_inv"},
		{encSMEM(smemOpWb, 0, 0, false, 0), "s_dcache_wb"},
		{encSMEM(smemOpInvVol, 0, 0, false, 0), "s_dcache_inv_vol"},
		{enc32(0xbf8c0000 | 0xc07f&^0xf00 | 1<<8), "s_waitcnt"},
		{enc32(0xbe800000 | 40<<16 | 12), "s_mov_b32"},
		{enc32(0x80000000 | 1<<23 | 4<<16 | 0xc0<<8 | 4), "s_sub_u32"},
	} {
		for _, target := range []isa.Target{isa.GFX9, isa.GFX8} {
			in, err := isa.Decode(tc.b, target)
			if err != nil || opName(in.Op) != tc.want {
				t.Errorf("%v % x: %v %v, want %s", target, tc.b, opName(in.Op), err, tc.want)
			}
		}
	}
}

// TestAllocAtMatchesLookup: allocAt, with its memory of the last
// allocations found, answers as Memory.Lookup does, for addresses drawn
// from more allocations than it remembers and from the gaps between them.
func TestAllocAtMatchesLookup(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	m := NewMachine(hexProgram(t, isa.GFX9, hexEndpgm), nil, core.DefaultConfig(isa.GFX9))
	var addrs []uint64
	for k := range 7 {
		addr, err := m.Mem.Alloc(fmt.Sprintf("a%d", k), uint64(64+r.IntN(300)), 64)
		if err != nil {
			t.Fatal(err)
		}
		addrs = append(addrs, addr)
	}
	for i := 0; i < 5000; i++ {
		addr := addrs[r.IntN(len(addrs))] + uint64(r.IntN(512)) - 64
		lo, size, vol, ok := m.w.AllocAt(addr)
		al, wok := m.Mem.Lookup(addr)
		if ok != wok || ok && (lo != al.Addr || size != al.Size || vol != al.Volatile) {
			t.Fatalf("%#x: allocAt %#x+%#x %v %v, Lookup %+v %v", addr, lo, size, vol, ok, al, wok)
		}
	}
}
