package samples

import (
	"fmt"
	"math"
)

// The walkthroughs' claims, as data: for each sample, a list of
// expectations, each "after the wave executes this source instruction,
// these checks hold", in program order (Delve's stepping tests over
// fixtures are the model). TestWalkthroughs runs every sample in emu and
// checks them.
//
// A walkthrough runs on one emu.Machine with full snapshots for as long as
// it can. At the first instruction only a whole-grid run executes (vector
// memory, LDS, barriers: see grid_test.go) the remaining claims are checked
// on a replay of the same wave from an emu.RunGrid trace. If emu cannot
// execute an instruction at all and the sample declared that machinery in
// needs, the test skips and lists every claim it did not check; any other
// failure to run is an error.

// need is machinery a sample depends on beyond the scalar ALU and program
// control.
type need string

const (
	needVALU  need = "the vector ALU (VOP1/VOP2/VOP3/VOPC)"
	needSMEM  need = "scalar memory (SMEM) and the scalar cache"
	needVMEM  need = "vector memory (MUBUF/MTBUF/GLOBAL through emu.VectorMemory)"
	needDS    need = "LDS (DS instructions through emu.VectorMemory)"
	needWaves need = "several waves of one workgroup with s_barrier (multi-wave dispatch)"
)

// walk is one sample's walkthrough run on one wave.
type walk struct {
	sample string
	group  uint32 // the workgroup of the wave that runs
	wave   int    // the wave within the workgroup
	needs  []need
	expect []expect
	// unchecked names the walkthrough steps no expectation checks, with
	// the reason; TestWalkthroughCoverage holds every other step to at
	// least one expectation.
	unchecked map[int]string
}

// expect is one claim of a walkthrough.
type expect struct {
	claim string // the walkthrough's step, in its words
	// at is the instruction, as written in the source, after whose
	// execution the checks hold; "text#n" picks the nth occurrence of a
	// repeated line in the source.
	at     string
	nth    int // which execution of that instruction (loops); 0 is the first
	checks []check
}

func flat(cs ...any) []check {
	var out []check
	for _, c := range cs {
		switch c := c.(type) {
		case check:
			out = append(out, c)
		case []check:
			out = append(out, c...)
		default:
			panic(fmt.Sprintf("not a check: %T", c))
		}
	}
	return out
}

// table returns a buffer dword holding 0xc0de0000 plus its byte offset.
func table(off uint32) uint32 { return 0xc0de0000 + off }

var walks = []walk{
	{sample: "smem_forms", needs: []need{needSMEM}, expect: []expect{
		{"1: s[4:5] holds the table's address", "s_waitcnt lgkmcnt(0)#1", 0, flat(bufPtr{4, "table"}, lgkm{0})},
		{"2: IMM=1 SOE=0 reads base + inst_offset", "s_load_dword s8, s[4:5], 0x10", 0, flat(saddrs{"table", []uint64{0x10}, nil}, lgkm{1}, pending{reg: "s8"})},
		{"3: IMM=0 reads base + SGPR[offset]", "s_load_dword s9, s[4:5], s20", 0, flat(saddrs{"table", []uint64{0x14}, nil})},
		{"4: IMM=1 SOE=1 adds both", "s_load_dword s10, s[4:5], s20 offset:0x8", 0, flat(saddrs{"table", []uint64{0x1c}, nil})},
		{"5: M0 as the offset register", "s_load_dword s11, s[4:5], m0", 0, flat(saddrs{"table", []uint64{0x20}, nil}, lgkm{4})},
		{"2-5: the loaded values", "s_waitcnt lgkmcnt(0)#2", 0, flat(sgprs(8, table(0x10), table(0x14), table(0x1c), table(0x20)), lgkm{0})},
		{"6: the low two bits of an immediate are ignored", "s_load_dword s12, s[4:5], 0x13", 0, flat(saddrs{"table", []uint64{0x10}, nil})},
		{"7: ... and of an SGPR offset", "s_load_dword s13, s[4:5], s21", 0, flat(saddrs{"table", []uint64{0x14}, nil})},
		{"8: dropped per component: 0x10 + 0x0", "s_load_dword s17, s[4:5], s22 offset:0x11", 0, flat(saddrs{"table", []uint64{0x10}, nil})},
		{"9: GFX9's signed immediate: 0x40 - 4", "s_load_dword s16, s[14:15], -0x4", 0, flat(saddrs{"table", []uint64{0x3c}, nil})},
		{"10: four consecutive dwords", "s_load_dwordx4 s[24:27], s[4:5], 0x30", 0, flat(saddrs{"table", []uint64{0x30, 0x34, 0x38, 0x3c}, nil})},
		{"6-10: the loaded values", "s_waitcnt lgkmcnt(0)#3", 0, flat(
			sgprs(12, table(0x10), table(0x14)), sgpr{16, table(0x3c)}, sgpr{17, table(0x10)},
			sgprs(24, table(0x30), table(0x34), table(0x38), table(0x3c)), lgkm{0})},
	}},

	{sample: "lgkm_count", needs: []need{needSMEM}, expect: []expect{
		{"1: one dword counts 1; the first touch misses", "s_load_dword s6, s[4:5], 0x0", 0, flat(lgkm{1}, cache{"miss"})},
		{"2: two dwords count 2", "s_load_dwordx2 s[8:9], s[4:5], 0x8", 0, flat(lgkm{3}, cache{"hit"})},
		{"3: four dwords count 2", "s_load_dwordx4 s[12:15], s[4:5], 0x10", 0, flat(lgkm{5}, cache{"hit"})},
		{"4: eight dwords count 2", "s_load_dwordx8 s[16:23], s[4:5], 0x20", 0, flat(lgkm{7}, cache{"hit"})},
		{"5: S_MEMTIME counts 2; 7: later hits complete before the earlier miss", "s_memtime s[24:25]", 0, flat(lgkm{9},
			completesFirst{"s8", "s6"}, latency{"s8", 20}, latency{"s6", 200})},
		{"6: lgkmcnt(0) waits for all", "s_waitcnt lgkmcnt(0)#2", 0, flat(lgkm{0}, sgpr{6, table(0)}, sgprs(8, table(8), table(0xc)),
			sgprs(12, table(0x10), table(0x14), table(0x18), table(0x1c)),
			sgprs(16, table(0x20), table(0x24), table(0x28), table(0x2c), table(0x30), table(0x34), table(0x38), table(0x3c)))},
		{"8: a miss", "s_load_dword s26, s[4:5], 0x100", 0, flat(lgkm{1}, cache{"miss"})},
		{"8: then a hit that overtakes it", "s_load_dwordx2 s[28:29], s[4:5], 0x8", 0, flat(lgkm{3}, cache{"hit"},
			completesFirst{"s28", "s26"})},
		{"9: lgkmcnt(2) passes while s26 is in flight", "s_waitcnt lgkmcnt(2)", 0, flat(lgkm{1}, sgprs(28, table(8), table(0xc)),
			pending{reg: "s26"}, pending{reg: "s28", not: true})},
		{"10: reading s26 now is a hazard; s30 gets the old value", "s_mov_b32 s30, s26", 0, flat(
			hazard{"s26", "s_load_dword s26, s[4:5], 0x100"}, sgpr{30, 0})},
		{"11: after lgkmcnt(0) the read is safe", "s_mov_b32 s31, s26", 0, flat(noHazard{}, sgpr{31, table(0x100)}, lgkm{0})},
	}},

	{sample: "missing_waitcnt", needs: []need{needVALU, needSMEM, needVMEM}, expect: []expect{
		{"1: s[4:5] = in, s[6:7] = out", "s_waitcnt lgkmcnt(0)#1", 0, flat(bufPtr{4, "in"}, bufPtr{6, "out"})},
		{"2: the load is in flight", "s_load_dword s8, s[4:5], 0x0", 0, flat(lgkm{1}, pending{reg: "s8"})},
		{"3: the early read is a hazard; s9 = 0 + 1", "s_add_u32 s9, s8, 1", 0, flat(
			hazard{"s8", "s_load_dword s8, s[4:5], 0x0"}, sgpr{9, 1})},
		{"4: the wait lands the load", "s_waitcnt lgkmcnt(0)#2", 0, flat(sgpr{8, 41}, lgkm{0}, pending{reg: "s8", not: true})},
		{"5: no hazard; s10 = 42", "s_add_u32 s10, s8, 1", 0, flat(noHazard{}, sgpr{10, 42})},
		{"6: out[0] = 1 (the bug), out[1] = 42", "s_endpgm", 0, flat(mem1("out", 0, 1), mem1("out", 1, 42))},
	}},

	{sample: "sbuffer_range", needs: []need{needSMEM}, expect: []expect{
		{"1: the V#: base, stride 0, 16 records", "s_mov_b32 s11, 0", 0, flat(bufPtr{8, "data"}, sgpr{10, 16})},
		{"3: in range", "s_buffer_load_dword s16, s[8:11], 0x0", 0, flat(saddrs{"data", []uint64{0}, nil})},
		{"4: the last dword in range", "s_buffer_load_dword s17, s[8:11], 0xc", 0, flat(saddrs{"data", []uint64{0xc}, nil})},
		{"5: out of range", "s_buffer_load_dword s18, s[8:11], 0x10", 0, flat(saddrs{"data", []uint64{0x10}, []bool{false}})},
		{"6: checked per dword", "s_buffer_load_dwordx4 s[20:23], s[8:11], 0x8", 0, flat(
			saddrs{"data", []uint64{0x8, 0xc, 0x10, 0x14}, []bool{true, true, false, false}})},
		{"3-6 and wavedbg's choice: out-of-range dwords keep their value", "s_waitcnt lgkmcnt(0)#2", 0, flat(
			sgprs(16, 0x11111111, 0x44444444, 0xdeadbeef), sgprs(20, 0x33333333, 0x44444444, 0xdeadbeef, 0xdeadbeef))},
	}, unchecked: map[int]string{
		2: "the one-instruction delay after writing a V# is a hardware timing rule emu does not model",
		7: "commentary on the stride != 0 ambiguity; the sample uses stride 0 only",
	}},

	{sample: "scalar_cache", needs: []need{needVALU, needSMEM, needVMEM}, expect: []expect{
		{"1: first touch: a miss", "s_load_dword s8, s[4:5], 0x0", 0, flat(cache{"miss"})},
		{"2: the same line: a hit", "s_load_dword s9, s[4:5], 0x4", 0, flat(cache{"hit"})},
		{"3: the next line: a miss", "s_load_dword s10, s[4:5], 0x40", 0, flat(cache{"miss"})},
		{"4: GLC refetches a cached line", "s_load_dword s11, s[4:5], 0x8 glc", 0, flat(cache{"miss(glc)"})},
		{"1-4: the values", "s_waitcnt lgkmcnt(0)#5", 0, flat(sgprs(8, table(0), table(4), table(0x40), table(8)))},
		{"5: a vector store does not touch the scalar cache", "global_store_dword v0, v1, s[4:5]", 0, flat(cache{})},
		{"6: a hit on the stale line", "s_load_dword s12, s[4:5], 0x0", 0, flat(cache{"hit"})},
		{"6: s12 is the old value", "s_waitcnt lgkmcnt(0)#6", 0, flat(sgpr{12, table(0)})},
		{"7: s_dcache_inv drops the three lines (kernarg, data+0x00, data+0x40)", "s_dcache_inv", 0, flat(
			cache{"invalidate", "invalidate", "invalidate"})},
		{"8: a miss that reads memory", "s_load_dword s13, s[4:5], 0x0", 0, flat(cache{"miss"})},
		{"8: s13 = 0x600d", "s_waitcnt lgkmcnt(0)#7", 0, flat(sgpr{13, 0x600d})},
		{"9: the scalar store fills a line and writes no memory", "s_store_dword s14, s[4:5], 0x80", 0, flat(cache{"miss"}, wrote{none: true})},
		{"10: s_dcache_wb writes the dirty line back", "s_dcache_wb", 0, flat(cache{"write-back"}, wrote{why: "write-back", want: 0x5ca1})},
		{"5, 10: memory after the run", "s_endpgm", 0, flat(mem1("data", 0, 0x600d), mem1("data", 32, 0x5ca1), mem1("data", 1, table(4)))},
	}},

	{sample: "mubuf_addressing", needs: []need{needVALU, needSMEM, needVMEM}, expect: []expect{
		{"1: offen: lanes 0-15 in range", "buffer_load_dword v4, v1, s[8:11], 0 offen", 0, flat(vaddrs{16})},
		{"2: idxen: lanes 0-15 in range", "buffer_load_dword v5, v0, s[12:15], 0 idxen", 0, flat(vaddrs{16})},
		{"3: idxen offen: lanes 0-15 in range", "buffer_load_dword v6, v[2:3], s[12:15], 0 idxen offen", 0, flat(vaddrs{16})},
		{"4: soffset shrinks the range: lanes 0-12", "buffer_load_dword v7, v1, s[8:11], s28 offen offset:4", 0, flat(vaddrs{13})},
		{"5: swizzled: lanes 0-15 in range", "buffer_load_dword v8, v0, s[16:19], 0 idxen offset:4", 0, flat(vaddrs{16})},
		{"6: add_tid: lanes 0-31 in range", "buffer_load_dword v9, off, s[20:23], 0", 0, flat(vaddrs{32})},
		{"7: the store: lanes 0-31 in range", "buffer_store_dword v0, v1, s[24:27], 0 offen", 0, flat(vaddrs{32})},
		{"1-6: the loaded values; out-of-range lanes read 0", "s_waitcnt vmcnt(0)", 0, flat(
			vgpr{4, 0, 15, "0xb0000000 + 4*lane", func(l int) uint32 { return 0xb0000000 + 4*uint32(l) }},
			vgpr{4, 16, 63, "0", zero},
			vgpr{5, 0, 15, "0xb0000000 + 8*lane", func(l int) uint32 { return 0xb0000000 + 8*uint32(l) }},
			vgpr{5, 16, 63, "0", zero},
			vgpr{6, 0, 15, "0xb0000000 + 8*lane + 4", func(l int) uint32 { return 0xb0000004 + 8*uint32(l) }},
			vgpr{6, 16, 63, "0", zero},
			vgpr{7, 0, 12, "0xb000000c + 4*lane", func(l int) uint32 { return 0xb000000c + 4*uint32(l) }},
			vgpr{7, 13, 63, "0", zero},
			vgpr{8, 0, 15, "0xb0000020 + 4*(lane%8) + 64*(lane/8)", func(l int) uint32 { return 0xb0000020 + 4*uint32(l%8) + 64*uint32(l/8) }},
			vgpr{8, 16, 63, "0", zero},
			vgpr{9, 0, 31, "0xb0000000 + 4*lane", func(l int) uint32 { return 0xb0000000 + 4*uint32(l) }},
			vgpr{9, 32, 63, "0", zero})},
		{"7 and the summary: dst", "s_endpgm", 0, flat(
			mem{"dst", 0, 63, "v4 per lane", func(i int) uint32 { return cond(i < 16, 0xb0000000+4*uint32(i), 0) }},
			mem{"dst", 320, 383, "v9 per lane", func(i int) uint32 { l := i - 320; return cond(l < 32, 0xb0000000+4*uint32(l), 0) }},
			mem{"dst", 384, 415, "lane", func(i int) uint32 { return uint32(i - 384) }},
			mem{"dst", 416, 447, "0xeeeeeeee (dropped stores)", func(int) uint32 { return 0xeeeeeeee }})},
	}},

	{sample: "buffer_format", needs: []need{needVALU, needSMEM, needVMEM}, expect: []expect{
		{"1-4: the loads", "s_waitcnt vmcnt(0)", 0, flat(
			vgprF32{4, 0, 3, "R/255", func(l int) float32 { return texel(l, 0) / 255 }},
			vgprF32{5, 0, 3, "G/255", func(l int) float32 { return texel(l, 1) / 255 }},
			vgprF32{6, 0, 3, "B/255", func(l int) float32 { return texel(l, 2) / 255 }},
			vgprF32{7, 0, 3, "A/255", func(l int) float32 { return texel(l, 3) / 255 }},
			vgprF32{8, 0, 3, "A/255 (DST_SEL X=A)", func(l int) float32 { return texel(l, 3) / 255 }},
			vgprF32{9, 0, 3, "B/255 (DST_SEL Y=B)", func(l int) float32 { return texel(l, 2) / 255 }},
			vgprF32{10, 0, 3, "0.0 (DST_SEL Z=0)", func(int) float32 { return 0 }},
			vgprF32{11, 0, 3, "1.0 (DST_SEL W=1)", func(int) float32 { return 1 }},
			vgpr{12, 0, 3, "R", func(l int) uint32 { return uint32(texel(l, 0)) }},
			vgpr{13, 0, 3, "G", func(l int) uint32 { return uint32(texel(l, 1)) }},
			vgpr{14, 0, 3, "B", func(l int) uint32 { return uint32(texel(l, 2)) }},
			vgpr{15, 0, 3, "A", func(l int) uint32 { return uint32(texel(l, 3)) }},
			vgpr{16, 0, 3, "the texel's dword", texelDword})},
		{"5 and the layout of dst", "s_endpgm", 0, flat(
			mem{"dst", 48, 51, "the texels' dwords", func(i int) uint32 { return texelDword(i - 48) }},
			mem{"dst", 52, 63, "0xeeeeeeee", func(int) uint32 { return 0xeeeeeeee }},
			mem{"dst", 64, 67, "0xffff8000 (0.5, 1.0 as 16_16 UNORM)", func(int) uint32 { return 0xffff8000 }})},
	}},

	{sample: "lds_direct", needs: []need{needVALU, needSMEM, needVMEM, needDS}, expect: []expect{
		{"1: v3 = (63 - lane)*4", "v_lshlrev_b32 v3, 2, v3", 0, flat(
			vgpr{3, 0, 63, "(63-lane)*4", func(l int) uint32 { return 4 * uint32(63-l) }})},
		{"2: M0 = 0x100", "s_movk_i32 m0, 0x100", 0, flat(m0{0x100})},
		{"3: the load writes no VGPR", "s_waitcnt vmcnt(0)", 0, flat(
			vgpr{3, 0, 63, "(63-lane)*4, unchanged", func(l int) uint32 { return 4 * uint32(63-l) }})},
		{"4: ds_read_b32 brings LDS[0x100 + 4*lane] back", "s_waitcnt lgkmcnt(0)#2", 0, flat(
			vgpr{2, 0, 63, "0xa0000000 + 4*(63-lane)", func(l int) uint32 { return 0xa0000000 + 4*uint32(63-l) }})},
		{"5: dst is src reversed", "s_endpgm", 0, flat(
			mem{"dst", 0, 63, "0xa0000000 + 4*(63-i)", func(i int) uint32 { return 0xa0000000 + 4*uint32(63-i) }})},
	}},

	{sample: "vector_add", group: 0, needs: []need{needVALU, needSMEM, needVMEM}, expect: vectorAdd(0)},
	{sample: "vector_add", group: 1, needs: []need{needVALU, needSMEM, needVMEM}, expect: vectorAdd(1)},

	{sample: "reduction", needs: []need{needVALU, needSMEM, needVMEM, needDS, needWaves}, expect: []expect{
		{"1: LDS[lid] = in[group*256 + lid], lid = v0", "ds_write_b32 v1, v2", 0, flat(
			vgpr{0, 0, 63, "lid = lane", func(l int) uint32 { return uint32(l) }},
			vgpr{2, 0, 63, "in[lid] = lid + 1", func(l int) uint32 { return uint32(l) + 1 }})},
		{"3: round 1: all of wave 0 adds", "s_and_saveexec_b64 s[12:13], vcc#1", 0, flat(execMask{math.MaxUint64})},
		{"4: LDS[lid] = in[lid] + in[lid+128] after round 1", "v_add_u32 v3, v3, v4", 0, flat(
			vgpr{3, 0, 63, "(lid+1) + (lid+129)", func(l int) uint32 { return 2*uint32(l) + 130 }})},
		{"3: round 3 (s10 = 32): lanes 0-31 of wave 0", "s_and_saveexec_b64 s[12:13], vcc#1", 2, flat(sgpr{10, 32}, execMask{1<<32 - 1})},
		{"2: the eighth and last barrier", "s_barrier", 7, flat(sgpr{10, 1})},
		{"5: out[group] = the group's sum", "s_endpgm", 0, flat(mem1("out", 0, 32896), mem1("out", 1, 98432))},
	}},
	{sample: "reduction", wave: 2, needs: []need{needVALU, needSMEM, needVMEM, needDS, needWaves}, expect: []expect{
		{"1: wave 2 holds lids 128-191", "ds_write_b32 v1, v2", 0, flat(
			vgpr{0, 0, 63, "lid = 128 + lane", func(l int) uint32 { return 128 + uint32(l) }})},
		{"3: in round 1 wave 2 runs with EXEC = 0", "s_and_saveexec_b64 s[12:13], vcc#1", 0, flat(execMask{0})},
		{"2, 3: every wave executes every s_barrier", "s_barrier", 7, flat(sgpr{10, 1})},
	}},
	{sample: "reduction", group: 1, needs: []need{needVALU, needSMEM, needVMEM, needDS, needWaves}, expect: []expect{
		{"1: group 1 reads in[256 + lid]", "ds_write_b32 v1, v2", 0, flat(
			vgpr{2, 0, 63, "in[256 + lid] = 257 + lid", func(l int) uint32 { return 257 + uint32(l) }})},
		{"5: work-item 0 of group 1 stores 98432", "global_store_dword v6, v3, s[6:7]", 0, flat(
			vgpr{3, 0, 0, "98432", func(int) uint32 { return 98432 }})},
	}},
}

// vectorAdd is the vector_add walkthrough for workgroup g (one wave).
func vectorAdd(g uint32) []expect {
	active := uint64(math.MaxUint64)
	last := 63
	if g == 1 {
		active, last = 1<<36-1, 35
	}
	c := func(i int) uint32 { return math.Float32bits(float32(i) + (1000 + 0.5*float32(i))) }
	return []expect{
		{"1: s8 is the workgroup id X, v0 the work-item id X", "s_load_dword s9, s[4:5], 0x4", 0, flat(sgpr{8, g},
			vgpr{0, 0, 63, "lane", func(l int) uint32 { return uint32(l) }})},
		{"3: n = 100 and the hidden global offset 0, in one wait", "s_waitcnt lgkmcnt(0)#1", 0, flat(sgpr{0, 100}, sgprs(2, 0, 0), lgkm{0})},
		{"2: the workgroup size from the dispatch packet", "s_and_b32 s4, s9, 0xffff", 0, flat(sgpr{4, 64})},
		{"4: global id = group*64 + lane", "v_add_u32_e32 v0, s8, v0", 0, flat(
			vgpr{0, 0, 63, "64*group + lane", func(l int) uint32 { return 64*g + uint32(l) }})},
		{"5: EXEC keeps the lanes with i < n", "s_and_saveexec_b64 s[0:1], vcc", 0, flat(execMask{active})},
		{"6: two loads raise VM_CNT to 2", "global_load_dword v7, v[2:3], off", 0, flat(vmcnt{2})},
		{"6: vmcnt(0) waits for a[i] and b[i]", "s_waitcnt vmcnt(0)", 0, flat(vmcnt{0},
			vgpr{6, 0, last, "a[i] = i", func(l int) uint32 { return math.Float32bits(float32(64*int(g) + l)) }},
			vgpr{7, 0, last, "b[i] = 1000 + 0.5*i", func(l int) uint32 { return math.Float32bits(1000 + 0.5*float32(64*int(g)+l)) }})},
		{"7: c[i] = a[i] + b[i] for i < n, -1 beyond", "s_endpgm", 0, flat(
			mem{"c", 64 * int(g), 64*int(g) + last, "1000 + 1.5*i", c},
			mem{"c", 100, 127, "-1", func(int) uint32 { return math.Float32bits(-1) }})},
	}
}

func zero(int) uint32 { return 0 }

func cond(b bool, x, y uint32) uint32 {
	if b {
		return x
	}
	return y
}

// texelDword is buffer_format's src[lane] (manifest fill iota:0xff804000:0x10101010).
func texelDword(lane int) uint32 { return 0xff804000 + uint32(lane)*0x10101010 }

// texel returns component c (R=0 ... A=3) of lane's texel.
func texel(lane, c int) float32 { return float32(texelDword(lane) >> (8 * c) & 0xff) }
