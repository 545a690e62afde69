package emu

import (
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// Instructions for the fast-path tests, with their encodings (llvm-mc-19
// -show-encoding) so the tests need no assembler.
var vmFastInsts9 = []struct{ asm, enc string }{
	{"global_load_ubyte v4, v[2:3], off offset:3", "03 80 40 dc 02 00 7f 04"},
	{"global_load_sbyte v4, v[2:3], off", "00 80 44 dc 02 00 7f 04"},
	{"global_load_ushort v4, v[2:3], off offset:-2", "fe 9f 48 dc 02 00 7f 04"},
	{"global_load_sshort v4, v[2:3], off", "00 80 4c dc 02 00 7f 04"},
	{"global_load_dword v4, v[2:3], off offset:4", "04 80 50 dc 02 00 7f 04"},
	{"global_load_dwordx2 v[4:5], v[2:3], off", "00 80 54 dc 02 00 7f 04"},
	{"global_load_dwordx3 v[4:6], v[2:3], off offset:8", "08 80 58 dc 02 00 7f 04"},
	{"global_load_dwordx4 v[4:7], v[2:3], off offset:-16", "f0 9f 5c dc 02 00 7f 04"},
	{"global_load_short_d16 v4, v[2:3], off", "00 80 90 dc 02 00 7f 04"},
	{"global_load_short_d16_hi v4, v[2:3], off", "00 80 94 dc 02 00 7f 04"},
	{"global_load_ubyte_d16 v4, v[2:3], off", "00 80 80 dc 02 00 7f 04"},
	{"global_load_sbyte_d16_hi v4, v[2:3], off", "00 80 8c dc 02 00 7f 04"},
	{"global_load_dword v4, v2, s[6:7] offset:12", "0c 80 50 dc 02 00 06 04"},
	{"global_load_dwordx4 v[4:7], v2, s[6:7]", "00 80 5c dc 02 00 06 04"},
	{"global_store_byte v[2:3], v4, off", "00 80 60 dc 02 04 7f 00"},
	{"global_store_short v[2:3], v4, off offset:1", "01 80 68 dc 02 04 7f 00"},
	{"global_store_dword v[2:3], v4, off offset:-4", "fc 9f 70 dc 02 04 7f 00"},
	{"global_store_dwordx2 v[2:3], v[4:5], off", "00 80 74 dc 02 04 7f 00"},
	{"global_store_dwordx3 v[2:3], v[4:6], off", "00 80 78 dc 02 04 7f 00"},
	{"global_store_dwordx4 v[2:3], v[4:7], off offset:16", "10 80 7c dc 02 04 7f 00"},
	{"global_store_byte_d16_hi v[2:3], v4, off", "00 80 64 dc 02 04 7f 00"},
	{"global_store_short_d16_hi v[2:3], v4, off", "00 80 6c dc 02 04 7f 00"},
	{"global_store_dword v2, v4, s[6:7] offset:8", "08 80 70 dc 02 04 06 00"},
	{"flat_load_dword v4, v[2:3]", "00 00 50 dc 02 00 00 04"},
	{"flat_load_dwordx2 v[4:5], v[2:3] offset:4", "04 00 54 dc 02 00 00 04"},
	{"flat_load_ushort v4, v[2:3]", "00 00 48 dc 02 00 00 04"},
	{"flat_store_dword v[2:3], v4", "00 00 70 dc 02 04 00 00"},
	{"flat_store_dwordx4 v[2:3], v[4:7] offset:8", "08 00 7c dc 02 04 00 00"},
	{"flat_store_byte v[2:3], v4", "00 00 60 dc 02 04 00 00"},
	{"scratch_load_dword v4, v2, off offset:4", "04 40 50 dc 02 00 7f 04"},
	{"scratch_load_dwordx2 v[4:5], v2, off", "00 40 54 dc 02 00 7f 04"},
	{"scratch_load_ubyte v4, v2, off offset:1", "01 40 40 dc 02 00 7f 04"},
	{"scratch_load_dword v4, off, s8 offset:8", "08 40 50 dc 00 00 08 04"},
	{"scratch_store_dword v2, v4, off", "00 40 70 dc 02 04 7f 00"},
	{"scratch_store_dwordx3 v2, v[4:6], off offset:4", "04 40 78 dc 02 04 7f 00"},
	{"scratch_store_short v2, v4, off offset:2", "02 40 68 dc 02 04 7f 00"},
	{"buffer_load_dword v4, v2, s[12:15], s16 offen offset:4", "04 10 50 e0 02 04 03 10"},
	{"buffer_load_dword v4, v2, s[12:15], s16 idxen offset:8", "08 20 50 e0 02 04 03 10"},
	{"buffer_load_dword v4, v[2:3], s[12:15], s16 idxen offen", "00 30 50 e0 02 04 03 10"},
	{"buffer_load_dword v4, off, s[12:15], s16 offset:20", "14 00 50 e0 00 04 03 10"},
	{"buffer_load_dwordx2 v[4:5], v2, s[12:15], s16 offen", "00 10 54 e0 02 04 03 10"},
	{"buffer_load_dwordx4 v[4:7], v2, s[12:15], s16 offen offset:12", "0c 10 5c e0 02 04 03 10"},
	{"buffer_load_ubyte v4, v2, s[12:15], s16 offen", "00 10 40 e0 02 04 03 10"},
	{"buffer_load_sshort v4, v2, s[12:15], s16 offen offset:1", "01 10 4c e0 02 04 03 10"},
	{"buffer_load_short_d16_hi v4, v2, s[12:15], s16 offen", "00 10 94 e0 02 04 03 10"},
	{"buffer_store_dword v4, v2, s[12:15], s16 offen offset:4", "04 10 70 e0 02 04 03 10"},
	{"buffer_store_dword v4, v2, s[12:15], s16 idxen", "00 20 70 e0 02 04 03 10"},
	{"buffer_store_dwordx2 v[4:5], v[2:3], s[12:15], s16 idxen offen", "00 30 74 e0 02 04 03 10"},
	{"buffer_store_dwordx4 v[4:7], v2, s[12:15], s16 offen", "00 10 7c e0 02 04 03 10"},
	{"buffer_store_byte v4, v2, s[12:15], s16 offen offset:3", "03 10 60 e0 02 04 03 10"},
	{"buffer_store_short_d16_hi v4, v2, s[12:15], s16 offen", "00 10 6c e0 02 04 03 10"},
	{"buffer_store_dwordx3 v[4:6], off, s[12:15], s16 offset:16", "10 00 78 e0 00 04 03 10"},
	{"buffer_load_format_x v4, v2, s[12:15], s16 offen", "00 10 00 e0 02 04 03 10"},
	{"buffer_atomic_add v4, v2, s[12:15], s16 offen glc", "00 50 08 e1 02 04 03 10"},
	{"global_atomic_cmpswap_x2 v[4:5], v[2:3], v[6:9], off glc", "00 80 85 dd 02 06 7f 04"},
	{"global_atomic_umax_x2 v[2:3], v[6:7], off", "00 80 9c dd 02 06 7f 00"},
	{"global_atomic_swap v4, v[2:3], v5, off offset:8 glc", "08 80 01 dd 02 05 7f 04"},
	{"global_atomic_sub v4, v2, v5, s[6:7] glc", "00 80 0d dd 02 05 06 04"},
	{"global_atomic_smin v2, v5, s[6:7] offset:4", "04 80 10 dd 02 05 06 00"},
	{"flat_atomic_add v4, v[2:3], v5 glc", "00 00 09 dd 02 05 00 04"},
	{"flat_atomic_cmpswap v[2:3], v[5:6]", "00 00 04 dd 02 05 00 00"},
	{"global_atomic_inc v4, v[2:3], v5, off glc", "00 80 2d dd 02 05 7f 04"},
	{"global_atomic_dec_x2 v[4:5], v[2:3], v[6:7], off glc", "00 80 b1 dd 02 06 7f 04"},
	{"global_atomic_add v4, v[2:3], v5, off glc", "00 80 09 dd 02 05 7f 04"},
}

var vmFastInsts8 = []struct{ asm, enc string }{
	{"buffer_load_dword v4, v2, s[12:15], s16 offen offset:4", "04 10 50 e0 02 04 03 10"},
	{"buffer_store_dwordx2 v[4:5], v[2:3], s[12:15], s16 idxen offen", "00 30 74 e0 02 04 03 10"},
	{"buffer_load_dwordx4 v[4:7], v2, s[12:15], s16 offen offset:12", "0c 10 5c e0 02 04 03 10"},
	{"buffer_store_byte v4, v2, s[12:15], s16 offen offset:3", "03 10 60 e0 02 04 03 10"},
	{"buffer_load_dword v4, v2, s[12:15], s16 idxen offset:8", "08 20 50 e0 02 04 03 10"},
	{"buffer_store_dword v4, v2, s[12:15], s16 offen", "00 10 70 e0 02 04 03 10"},
	{"flat_load_dword v4, v[2:3]", "00 00 50 dc 02 00 00 04"},
	{"flat_store_dwordx2 v[2:3], v[4:5]", "00 00 74 dc 02 04 00 00"},
	{"flat_load_sbyte v4, v[2:3]", "00 00 44 dc 02 00 00 04"},
}

const vmWaitEnd = "70 00 8c bf 00 00 81 bf" // s_waitcnt vmcnt(0) lgkmcnt(0); s_endpgm

// The fast-path tests' address space: A and B filled with random bytes,
// C never written, gaps between them unmapped; scratch backing and LDS.
const (
	vfA       = 0x1_0000_0000 // 0x2000 bytes
	vfB       = 0x1_0000_2800 // 0x1000 bytes: crosses a page at 0x3000
	vfC       = 0x1_0000_4000 // 0x1000 bytes, never written
	vfScratch = 0x1_0010_0000 // 0x10000 bytes
)

// TestVMemFastMatchesGeneral: every load, store and atomic the fast path takes
// leaves the same registers, memory and fault as the general path, over
// random EXEC masks, addresses (unaligned, crossing pages, past an
// allocation, in a gap, in the flat apertures), V#s (raw, strided,
// swizzled, add_tid, out of range) and SOFFSETs, on plain memory and on a
// grid worker's view.
func TestVMemFastMatchesGeneral(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	for _, tc := range []struct {
		target isa.Target
		insts  []struct{ asm, enc string }
	}{{isa.GFX9, vmFastInsts9}, {isa.GFX8, vmFastInsts8}} {
		for _, in := range tc.insts {
			t.Run(tc.target.String()+"/"+in.asm, func(t *testing.T) {
				faulted, took := 0, false
				p := vfProgram(t, tc.target, in.enc)
				if o, ok := ref.CompileVM(&p.Insts[0]); ok {
					took = fast.FastOK(o) || fast.FastAtomicOK(o)
				}
				wantFast := !strings.Contains(in.asm, "format") && !strings.HasPrefix(in.asm, "buffer_atomic")
				if took != wantFast {
					t.Fatalf("fastOK = %v, want %v", took, wantFast)
				}
				for s := 0; s < seeds; s++ {
					seed := uint64(s)*7919 + uint64(len(in.asm))
					view, faults := s%2 == 1, s%3 == 2
					a, ea := vfRun(t, tc.target, in.asm, in.enc, seed, view, faults, false)
					b, eb := vfRun(t, tc.target, in.asm, in.enc, seed, view, faults, true)
					if d := vfCompare(a, b, ea, eb); d != "" {
						t.Fatalf("seed %d (view %v): %s", seed, view, d)
					}
					if ea != nil {
						faulted++
					}
				}
				if faulted == seeds {
					t.Errorf("every run faulted")
				}
			})
		}
	}
}
