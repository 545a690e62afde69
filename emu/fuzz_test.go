package emu

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// goldenWords returns every instruction of testdata/asm.txt for gfx900.
func goldenWords(t testing.TB) [][]byte {
	f, err := os.Open(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	s := bufio.NewScanner(f)
	for s.Scan() {
		p := strings.Split(s.Text(), "\t")
		if len(p) == 3 && p[0] == "gfx900" {
			if b, err := hex.DecodeString(p[2]); err == nil {
				out = append(out, b)
			}
		}
	}
	return out
}

// runStream executes text from a random state with memory mapped around
// the SGPR base pairs, then undoes every step; it must never panic.
func runStream(t testing.TB, text []byte, seed uint64) int {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	p := DecodeProgram(isa.GFX9, 0, text)
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.Cache = CacheConfig{Size: 512, Ways: 2}
	m := NewMachine(p, nil, cfg)
	m.Mem.Map("buf", 0x10000, 0x10000, r.IntN(2) == 0)
	for i := 0; i < 102; i++ {
		v := r.Uint32()
		if r.IntN(3) > 0 {
			v = 0x10000 + r.Uint32N(0x8000)
		}
		if i%2 == 1 && r.IntN(2) == 0 {
			v = 0
		}
		m.SetSGPR(i, v)
	}
	for reg := 0; reg < 16; reg++ {
		for l := 0; l < 64; l++ {
			m.SetVGPR(reg, l, r.Uint32())
		}
	}
	m.SetExec(r.Uint64())
	m.SetMode(r.Uint32() & 0x3ff)
	before := m.Snapshot()
	before.LastAddrs = nil
	memBefore := make([]byte, 0x10000)
	m.Mem.ReadRaw(0x10000, memBefore)
	n := 0
	for ; n < 200; n++ {
		if _, err := m.Step(); err != nil {
			break
		}
		if m.State() != core.Running {
			break
		}
	}
	res, _ := m.Run(context.Background(), 100) // and without records
	n += int(res.Steps)
	for m.StepBack() == nil {
	}
	after := m.Snapshot()
	after.LastAddrs = nil
	memAfter := make([]byte, 0x10000)
	m.Mem.ReadRaw(0x10000, memAfter)
	if m.HistoryLen() != 0 || !reflect.DeepEqual(after, before) || !bytes.Equal(memAfter, memBefore) {
		t.Fatalf("stepping back to the start did not restore it")
	}
	return n
}

// Random streams of valid instructions (words the decoder accepts, drawn
// from the golden corpus and from random words) never panic.
func TestRandomStreams(t *testing.T) {
	pool := goldenWords(t)
	r := rand.New(rand.NewPCG(7, 8))
	for len(pool) < 400 {
		var w [12]byte
		for i := range w {
			w[i] = byte(r.Uint32())
		}
		in, err := isa.Decode(w[:], isa.GFX9)
		if err == nil && in.Len > 0 && straightLine(in.Op.String()) {
			pool = append(pool, append([]byte(nil), w[:in.Len]...))
		}
	}
	steps := 0
	for i := 0; i < 300; i++ {
		var text []byte
		for k := 0; k < 40; k++ {
			text = append(text, pool[r.IntN(len(pool))]...)
		}
		steps += runStream(t, text, uint64(i))
	}
	t.Logf("%d steps executed and undone", steps)
	if steps < 3000 {
		t.Errorf("only %d steps: the streams stop too early to test much", steps)
	}
}

func FuzzRun(f *testing.F) {
	words := goldenWords(f)
	for i := 0; i+4 <= len(words); i += 4 {
		var seed []byte
		for _, w := range words[i : i+4] {
			seed = append(seed, w...)
		}
		f.Add(seed, uint64(i))
	}
	f.Add(binary.LittleEndian.AppendUint32(nil, 0xbf810000), uint64(1)) // s_endpgm
	f.Fuzz(func(t *testing.T, text []byte, seed uint64) {
		if len(text) > 4096 {
			return
		}
		runStream(t, text, seed)
	})
}

// straightLine reports whether an operation the emulator implements runs
// without leaving the stream (no branch, end, trap or halt).
func straightLine(name string) bool {
	if ref.OpTable[name] == nil {
		return false
	}
	for _, p := range []string{"s_cbranch", "s_branch", "s_setpc", "s_swappc", "s_endpgm", "s_call", "s_rfe", "s_trap", "s_sethalt"} {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	return true
}
