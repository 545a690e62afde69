package emu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/isa"
)

// sweepChunk is how many forms one program of TestEnginesAgreeEveryForm
// runs.
const sweepChunk = 24

// TestEnginesAgreeEveryForm runs every form the fuzz generator draws from
// (each SALU and VALU form the emulator implements, every SMEM, DS,
// buffer, FLAT and GLOBAL form) three times with random operands, on both
// targets, under MODE with denormals kept (the f32 rows) and flushed,
// through both engines: the corpus of FuzzEnginesAgree samples the forms,
// this reaches each.
func TestEnginesAgreeEveryForm(t *testing.T) {
	ts, err := fuzzTemplates()
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range []isa.Target{isa.GFX9, isa.GFX8} {
		fs := formsFor(tg)
		var all []*isa.Form
		for _, l := range [][]*isa.Form{fs.salu, fs.valu, fs.smem, fs.ds, fs.buf, fs.flat} {
			all = append(all, l...)
		}
		for lo := 0; lo < len(all); lo += sweepChunk {
			forms := all[lo:min(lo+sweepChunk, len(all))]
			for _, mode := range []uint32{0xf0, 0x00} {
				name := fmt.Sprintf("%v forms %d-%d (%s…) MODE %#x", tg, lo, lo+len(forms)-1, forms[0].Mnemonic, mode)
				prog := sweepProgram(tg, fs, ts[tg].lds, forms, mode, uint64(lo))
				enginesAgree(t, name, templateLaunch(ts[tg], prog, 64, 64), 100_000)
				if t.Failed() {
					t.Fatalf("the program:\n%s", listing(tg, prog))
				}
			}
		}
	}
}

// sweepProgram is a program that runs each of forms three times, with
// random operands from seed, in MODE mode with every lane on.
func sweepProgram(t isa.Target, fs *genForms, lds uint32, forms []*isa.Form, mode uint32, seed uint64) []byte {
	g := &gen{t: t, fs: fs, lds: lds, rng: rand.New(rand.NewPCG(seed, uint64(mode)))}
	g.prologue()
	for _, f := range forms {
		// MODE and EXEC as the sweep wants them: an earlier form may have
		// changed them (s_setreg, v_cmpx, s_*_saveexec)
		g.frame(fs.sSetreg, &fields{code: map[isa.Field]uint32{isa.FieldSIMM16: 1 | 7<<11, isa.FieldSIMM32: mode}})
		for range 3 {
			g.frame(fs.sMov64, &fields{code: map[isa.Field]uint32{isa.FieldSDST: 126, isa.FieldSSRC0: 0xc1}}) // exec = -1
			for try := 0; try < 8 && !g.one(f); try++ {
			}
		}
	}
	g.frame(fs.endpgm, &fields{code: map[isa.Field]uint32{}})
	return g.text
}

// one appends an instance of form f with random operands.
func (g *gen) one(f *isa.Form) bool {
	switch f.Enc {
	case isa.EncSMEM:
		return g.smem(f)
	case isa.EncDS:
		return g.ds(f)
	case isa.EncMUBUF, isa.EncMTBUF:
		return g.buffer(f)
	case isa.EncFLAT:
		return g.flat(f)
	}
	return g.fold(g.alu(f))
}
