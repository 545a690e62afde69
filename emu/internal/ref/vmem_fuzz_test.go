package ref

import (
	"encoding/binary"
	"testing"

	"github.com/wavedbg/wavedbg/isa"
)

// FuzzCompileVM: every word pair that decodes to a vector memory or DS
// instruction compiles without panicking, into an operation whose register
// fields are in range.
func FuzzCompileVM(f *testing.F) {
	for _, w := range [][2]uint32{
		{0xdc508000, 0x017f0002}, // global_load_dword v1, v[2:3], off
		{0xe0501004, 0x03000201}, // buffer_load_dword ... offen offset:4
		{0xd87a801b, 0x0f000001}, // ds_swizzle_b32
		{0xd81e0100, 0x0012010a}, // ds_write2st64_b32
		{0xea2aa000, 0x8006080b}, // tbuffer_store_format_xy
	} {
		f.Add(w[0], w[1], true)
		f.Add(w[0], w[1], false)
	}
	f.Fuzz(func(t *testing.T, w0, w1 uint32, gfx9 bool) {
		tg := isa.GFX8
		if gfx9 {
			tg = isa.GFX9
		}
		var b [12]byte
		binary.LittleEndian.PutUint32(b[0:], w0)
		binary.LittleEndian.PutUint32(b[4:], w1)
		in, err := isa.Decode(b[:], tg)
		if err != nil {
			return
		}
		switch in.Enc {
		case isa.EncMUBUF, isa.EncMTBUF, isa.EncFLAT, isa.EncDS:
		default:
			return
		}
		o, ok := CompileVM(&in)
		if !ok {
			return
		}
		for _, r := range []int{o.Vdst, o.Vdata, o.Vaddr, o.Ds.Data0, o.Ds.Data1} {
			if r < -1 || r > 255 {
				t.Fatalf("%s: register %d", in.String(), r)
			}
		}
		if o.Kind != VmCacheOp && o.Kind != VmDS && o.Size <= 0 && !o.Format {
			t.Fatalf("%s: size %d", in.String(), o.Size)
		}
	})
}
