package emu

import (
	"encoding/binary"
	"sort"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// TestOpCoverageFeatures extends TestOpCoverage to the rows that exist only
// with a processor feature (gfx904/gfx906): every VOP2, VOP3 and VOP3P
// opcode is decoded with v1, v2, v3 as sources, and each operation that
// decodes must have semantics.
func TestOpCoverageFeatures(t *testing.T) {
	skip := map[string]bool{}
	for _, n := range notModelled {
		skip[n] = true
	}
	var words [][2]uint32
	for opc := uint32(0); opc < 0x3e; opc++ {
		words = append(words, [2]uint32{opc<<25 | 2<<9 | 0x101, 0}) // VOP2 v0, v1, v2
	}
	for opc := uint32(0); opc < 1024; opc++ {
		words = append(words, [2]uint32{0xd0000000 | opc<<16, 0x040e0501}) // VOP3 v0, v1, v2, v3
	}
	for opc := uint32(0); opc < 128; opc++ {
		words = append(words, [2]uint32{0xd3800000 | opc<<16, 0x1c0e0501}) // VOP3P
	}
	for _, proc := range []string{"gfx904", "gfx906"} {
		f := isa.FeaturesOf(proc)
		seen := map[string]bool{}
		for _, w := range words {
			var b [8]byte
			binary.LittleEndian.PutUint32(b[:], w[0])
			binary.LittleEndian.PutUint32(b[4:], w[1])
			var in isa.Inst
			if err := isa.DecodeWith(b[:], isa.GFX9, f, &in); err != nil {
				continue
			}
			seen[opName(in.Op)] = true
		}
		var missing []string
		for n := range seen {
			if ref.OpTable[n] == nil && !skip[n] {
				missing = append(missing, n)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s: no semantics for %v", proc, missing)
		}
		for _, n := range []string{"v_fma_mix_f32", "v_fmac_f32", "v_dot2_f32_f16", "v_xnor_b32"} {
			if proc == "gfx906" && !seen[n] {
				t.Errorf("gfx906: %s not reached by the sweep", n)
			}
		}
		if !seen["v_fma_mixlo_f16"] {
			t.Errorf("%s: v_fma_mixlo_f16 not reached by the sweep", proc)
		}
	}
}
