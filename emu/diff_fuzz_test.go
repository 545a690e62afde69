package emu_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// fuzzTemplate is a kernel whose dispatch (descriptor, arguments, LDS)
// the fuzz programs borrow, replacing its code.
type fuzzTemplate struct {
	base *emu.Launch
	lds  uint32 // its LDS size
	in   bool   // its first argument is an input buffer before the output
}

// fuzzTemplates loads the templates: vmem_features (GFX9: in, out; 2 KiB
// of LDS) and ds_m0 (GFX8: out; 256 bytes of LDS). The code objects stay
// open for the test binary's life.
var fuzzTemplates = sync.OnceValues(func() (map[isa.Target]*fuzzTemplate, error) {
	ts := map[isa.Target]*fuzzTemplate{}
	for _, c := range []struct {
		t            isa.Target
		file, kernel string
		lds          uint32
		in           bool
	}{{isa.GFX9, "vmem_features", "vmem_features", 2048, true}, {isa.GFX8, "ds_gfx8", "ds_m0", 256, false}} {
		co, err := loader.Load(filepath.Join(clDir, "asm", c.file+".co"), loader.LoadOptions{})
		if err != nil {
			return nil, err
		}
		k := co.Kernel(c.kernel)
		if k == nil {
			return nil, fmt.Errorf("%s: no kernel %s", c.file, c.kernel)
		}
		l, err := emu.NewLaunch(co, k)
		if err != nil {
			return nil, err
		}
		ts[c.t] = &fuzzTemplate{base: l, lds: c.lds, in: c.in}
	}
	return ts, nil
})

// fuzzLaunch is the launch fuzz input data describes: its first byte
// chooses the target (GFX9 or GFX8), one or two waves per work-group and
// one or two work-groups; the rest is the program's.
func fuzzLaunch(data []byte) (mk func() (*emu.Launch, error), prog []byte, t isa.Target, err error) {
	var shape byte
	if len(data) > 0 {
		shape, data = data[0], data[1:]
	}
	t = isa.GFX9
	if shape&1 != 0 {
		t = isa.GFX8
	}
	ts, err := fuzzTemplates()
	if err != nil {
		return nil, nil, 0, err
	}
	block := uint32(64 << (shape >> 1 & 1))
	prog = genProgram(t, formsFor(t), ts[t].lds, data)
	return templateLaunch(ts[t], prog, block, block<<(shape>>2&1)), prog, t, nil
}

// templateLaunch returns a function making template tp's launch of
// program prog over grid work-items in work-groups of block.
func templateLaunch(tp *fuzzTemplate, prog []byte, block, grid uint32) func() (*emu.Launch, error) {
	return func() (*emu.Launch, error) {
		l := *tp.base
		l.Text, l.TextAddr = prog, l.Kernel.Entry
		l.Grid, l.Block, l.Dims = [3]uint32{grid, 1, 1}, [3]uint32{block, 1, 1}, 1
		out := make([]byte, 4*fuzzOutLen) // offsets and strides reach past fuzzOutLen
		for i := range out {
			out[i] = byte(i*131 + 7)
		}
		l.Args = []emu.LaunchArg{{Kind: emu.ArgBuffer, Addr: fuzzOut, Data: out}}
		if tp.in {
			in := make([]byte, 4096)
			for i := range in {
				in[i] = byte(i*37 + 11)
			}
			l.Args = append([]emu.LaunchArg{{Kind: emu.ArgBuffer, Addr: fuzzIn, Data: in}}, l.Args...)
		}
		return &l, nil
	}
}

// listing disassembles a fuzz program.
func listing(t isa.Target, prog []byte) string {
	p := emu.DecodeProgram(t, 0, prog)
	var b strings.Builder
	for i := range p.Insts {
		fmt.Fprintf(&b, "\t%#05x  %s\n", p.Addrs[i], p.Insts[i].String())
	}
	return b.String()
}

// FuzzEnginesAgree runs random valid instruction streams — SALU, VALU
// (VOP1, VOP2 and VOPC, also as SDWA and DPP; VOP3 with modifiers; VOP3P),
// SMEM loads, stores and atomics,
// DS, MUBUF/MTBUF, FLAT (global memory and the LDS aperture) and GLOBAL,
// s_waitcnt — on both engines, from random registers, modes and EXEC. The
// seed corpus is testdata/fuzz/FuzzEnginesAgree.
func FuzzEnginesAgree(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		mk, prog, tg, err := fuzzLaunch(data)
		if err != nil {
			t.Fatal(err)
		}
		enginesAgree(t, "fuzz program", mk, 100_000)
		if t.Failed() {
			t.Logf("the program (%v):\n%s", tg, listing(tg, prog))
		}
	})
}

// TestFuzzEnginesAgreeCorpus: the committed seeds run programs of every
// kind FuzzEnginesAgree generates — many distinct SALU, VALU (SDWA, DPP,
// VOP3P included), SMEM, DS, buffer, FLAT and GLOBAL operations on both
// targets, one, two and four waves — and run them to their end (a stream that faults or stops early
// tests little).
func TestFuzzEnginesAgreeCorpus(t *testing.T) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzEnginesAgree", "*"))
	if err != nil || len(seeds) < 32 {
		t.Fatalf("%d seeds (%v)", len(seeds), err)
	}
	ops := map[string]map[isa.Op]bool{}
	for _, p := range seeds {
		data, err := readSeed(p)
		if err != nil {
			t.Fatal(err)
		}
		mk, prog, tg, err := fuzzLaunch(data)
		if err != nil {
			t.Fatal(err)
		}
		r, err := runEngine(mk, emu.EngineFast, 100_000)
		if err != nil || r.err != nil || len(r.res.Faults) > 0 {
			t.Errorf("%s: %v %v %v", filepath.Base(p), err, r.err, r.res.Faults)
			continue
		}
		ops[fmt.Sprint("waves ", r.res.Waves)] = map[isa.Op]bool{}
		p := emu.DecodeProgram(tg, 0, prog)
		for i := range p.Insts {
			in := &p.Insts[i]
			k := fmt.Sprintf("%v %s", tg, classNames[in.Op.Info().Class])
			if in.Enc == isa.EncFLAT {
				k += map[isa.Seg]string{isa.SegFlat: " flat", isa.SegGlobal: " global", isa.SegScratch: " scratch"}[in.Mods.Seg]
			}
			for _, k := range []string{k, fmt.Sprintf("%v %s", tg, formNames[[2]int{int(in.Enc), int(in.Variant)}])} {
				if ops[k] == nil {
					ops[k] = map[isa.Op]bool{}
				}
				ops[k][in.Op] = true
			}
		}
	}
	for _, want := range []struct {
		kind string
		min  int
	}{
		{"gfx9 SALU", 90}, {"gfx9 VALU", 230}, {"gfx9 SMEM", 50}, {"gfx9 DS", 80}, {"gfx9 VMEM", 40},
		{"gfx9 FLAT flat", 30}, {"gfx9 VMEM global", 30},
		{"gfx8 SALU", 80}, {"gfx8 VALU", 220}, {"gfx8 SMEM", 16}, {"gfx8 DS", 75}, {"gfx8 VMEM", 40}, {"gfx8 FLAT flat", 27},
		{"gfx9 SDWA", 35}, {"gfx9 DPP", 18}, {"gfx9 VOP3P", 7}, {"gfx8 SDWA", 30}, {"gfx8 DPP", 18},
		{"waves 1", 0}, {"waves 2", 0}, {"waves 4", 0},
	} {
		if got, ok := ops[want.kind]; !ok || len(got) < want.min {
			t.Errorf("%s: %d distinct operations in the corpus' programs, want %d", want.kind, len(got), want.min)
		}
	}
}

// formNames names the VALU forms the corpus must reach, by encoding and
// variant.
var formNames = map[[2]int]string{
	{int(isa.EncVOP3P), int(isa.VariantNone)}: "VOP3P",
	{int(isa.EncVOP1), int(isa.VariantSDWA)}:  "SDWA", {int(isa.EncVOP2), int(isa.VariantSDWA)}: "SDWA", {int(isa.EncVOPC), int(isa.VariantSDWA)}: "SDWA",
	{int(isa.EncVOP1), int(isa.VariantDPP)}: "DPP", {int(isa.EncVOP2), int(isa.VariantDPP)}: "DPP", {int(isa.EncVOPC), int(isa.VariantDPP)}: "DPP",
}

var classNames = map[isa.Class]string{isa.ClassSALU: "SALU", isa.ClassVALU: "VALU", isa.ClassSMEM: "SMEM",
	isa.ClassVMEM: "VMEM", isa.ClassFLAT: "FLAT", isa.ClassDS: "DS"}

// readSeed reads a corpus file of one []byte value.
func readSeed(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
		return nil, fmt.Errorf("%s: not a corpus file of one []byte", path)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return []byte(s), nil
}
