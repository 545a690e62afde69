package emu

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// asmWord is one instruction given by its llvm-mc-19 encoding, so these
// tests need no assembler; the mnemonic is checked against the decoder.
type asmWord struct {
	asm   string
	words []uint32
}

// wordsProgram decodes ws (for features f) and checks each mnemonic.
func wordsProgram(t *testing.T, tg isa.Target, f isa.Features, ws ...asmWord) *Program {
	t.Helper()
	var text []byte
	for _, w := range ws {
		for _, x := range w.words {
			text = binary.LittleEndian.AppendUint32(text, x)
		}
	}
	p := DecodeProgramWith(tg, f, 0, text)
	if len(p.Insts) != len(ws) {
		t.Fatalf("decoded %d instructions, want %d", len(p.Insts), len(ws))
	}
	for i, w := range ws {
		want := strings.Fields(w.asm)[0]
		want = strings.TrimSuffix(strings.TrimSuffix(want, "_e32"), "_e64")
		if got := opName(p.Insts[i].Op); got != want {
			t.Fatalf("instruction %d decodes as %q, want %q", i, got, want)
		}
	}
	return p
}

func wordsMachine(t *testing.T, tg isa.Target, f isa.Features, ws ...asmWord) *Machine {
	t.Helper()
	return NewMachine(wordsProgram(t, tg, f, ws...), core.NewMemory(), core.DefaultConfig(tg))
}

// Encodings from llvm-mc-19 -mcpu=gfx803 (the same on gfx900).
var (
	wIFork     = asmWord{"s_cbranch_i_fork s[4:5], 2", []uint32{0xb8040002}} // target 0x0 + 4 + 2·4
	wGFork     = asmWord{"s_cbranch_g_fork s[4:5], s[6:7]", []uint32{0x94800604}}
	wJoin      = asmWord{"s_cbranch_join s10", []uint32{0xbe802e0a}}
	wMovV0     = asmWord{"v_mov_b32_e32 v0, 1", []uint32{0x7e000281}}
	wMovV1     = asmWord{"v_mov_b32_e32 v1, 2", []uint32{0x7e020282}}
	wEnd       = asmWord{"s_endpgm", []uint32{0xbf810000}}
	wRFERestor = asmWord{"s_rfe_restore_b64 s[4:5], s6", []uint32{0x95800604}}
)

// TestFork: one fork from CSP 2, worked from the GCN3 manual's
// S_CBRANCH_I_FORK / S_CBRANCH_G_FORK pseudocode: pass = S0 & EXEC,
// fail = ~S0 & EXEC; all pass → jump; all fail → next; else the smaller
// side runs first and {other address, other mask} goes to SGPR[4·CSP…+3]
// (here s[8:11]) and CSP becomes 3.
func TestFork(t *testing.T) {
	const dead = 0xdead | 0xdead<<32
	for _, fork := range []asmWord{wIFork, wGFork} {
		for _, tc := range []struct {
			name             string
			exec, mask       uint64
			pc, wantExec     uint64 // after the fork
			stkExec, stkAddr uint64 // dead: not written
		}{
			{"all pass", 0xff, 0xfff, 0xc, 0xff, dead, dead},
			{"all fail", 0xff, 0xf00, 0x4, 0xff, dead, dead},
			{"fewer fail", 0xff, 0x7f, 0x4, 0x80, 0x7f, 0xc},    // EXEC = fail, push {target, pass}
			{"fewer pass", 0xff, 0x01, 0xc, 0x01, 0xfe, 0x4},    // EXEC = pass, push {PC+4, fail}
			{"tie runs pass", 0xff, 0x0f, 0xc, 0x0f, 0xf0, 0x4}, // bitcount(fail) < bitcount(pass) is false
			{"upper lanes", 1<<63 | 0xff, 1 << 63, 0xc, 1 << 63, 0xff, 0x4},
		} {
			t.Run(strings.Fields(fork.asm)[0]+"/"+tc.name, func(t *testing.T) {
				m := wordsMachine(t, isa.GFX8, 0, fork, wMovV0, wEnd, wMovV1, wEnd)
				m.SetExec(tc.exec)
				m.SetMode(2 << ref.ModeCSPShift)
				m.SetSGPR(4, uint32(tc.mask))
				m.SetSGPR(5, uint32(tc.mask>>32))
				m.SetSGPR(6, 0xc) // g_fork's target address
				m.SetSGPR(7, 0)
				for i := 8; i < 12; i++ {
					m.SetSGPR(i, 0xdead)
				}
				mustStep(t, m)
				csp := uint32(3)
				if tc.stkExec == dead {
					csp = 2
				}
				if m.PC() != tc.pc || m.w.Exec() != tc.wantExec || ref.Csp(m.w) != csp {
					t.Fatalf("pc %#x exec %#x csp %d, want %#x %#x %d", m.PC(), m.w.Exec(), ref.Csp(m.w), tc.pc, tc.wantExec, csp)
				}
				if e, a := m.w.Get64(8), m.w.Get64(10); e != tc.stkExec || a != tc.stkAddr {
					t.Fatalf("s[8:11] = {exec %#x, addr %#x}, want {%#x, %#x}", e, a, tc.stkExec, tc.stkAddr)
				}
			})
		}
	}
}

// TestForkJoin runs fork; A; join; B; join; end over both orders and
// checks the PCs visited and each side's lanes (manual: the first join
// pops {PC, EXEC} and decrements CSP; once CSP equals the saved value the
// join falls through).
func TestForkJoin(t *testing.T) {
	prog := []asmWord{wIFork, wMovV0, wJoin, wMovV1, wJoin, wEnd}
	for _, tc := range []struct {
		name   string
		mask   uint64
		pcs    []uint64 // PC after each step
		v0, v1 uint64   // lanes that wrote v0 = 1 and v1 = 2
		exec   uint64   // EXEC at the end
	}{
		// fail (lane 7) smaller: A with fail, join pops pass → B, join falls through.
		{"fail first", 0x7f, []uint64{0x4, 0x8, 0xc, 0x10, 0x14}, 0x80, 0x7f, 0x7f},
		// pass (lane 0) smaller: B with pass, join pops fail → A, join falls through into B.
		{"pass first", 0x01, []uint64{0xc, 0x10, 0x4, 0x8, 0xc, 0x10, 0x14}, 0xfe, 0xff, 0xfe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := wordsMachine(t, isa.GFX8, 0, prog...)
			m.SetExec(0xff)
			m.SetSGPR(4, uint32(tc.mask))
			m.SetSGPR(10, 0) // CSP before the fork
			for i, pc := range tc.pcs {
				mustStep(t, m)
				if m.PC() != pc {
					t.Fatalf("step %d: pc %#x, want %#x", i, m.PC(), pc)
				}
			}
			var v0, v1 uint64
			for l := 0; l < 64; l++ {
				if m.w.V[0][l] == 1 {
					v0 |= 1 << l
				}
				if m.w.V[1][l] == 2 {
					v1 |= 1 << l
				}
			}
			if v0 != tc.v0 || v1 != tc.v1 || m.w.Exec() != tc.exec || ref.Csp(m.w) != 0 {
				t.Fatalf("v0 lanes %#x v1 lanes %#x exec %#x csp %d, want %#x %#x %#x 0", v0, v1, m.w.Exec(), ref.Csp(m.w), tc.v0, tc.v1, tc.exec)
			}
		})
	}
}

// TestJoinWrap: CSP is three bits; a join at CSP 0 with a different saved
// value pops entry 7 (SGPR 28–31).
func TestJoinWrap(t *testing.T) {
	m := wordsMachine(t, isa.GFX8, 0, wJoin, wEnd, wMovV0, wEnd)
	m.SetExec(1)
	m.SetSGPR(10, 5)
	m.SetSGPR(28, 0x30)
	m.SetSGPR(29, 0)
	m.SetSGPR(30, 0x8)
	m.SetSGPR(31, 0)
	mustStep(t, m)
	if m.PC() != 0x8 || m.w.Exec() != 0x30 || ref.Csp(m.w) != 7 {
		t.Fatalf("pc %#x exec %#x csp %d, want 0x8 0x30 7", m.PC(), m.w.Exec(), ref.Csp(m.w))
	}
	// a join to an address outside the program stops with an error naming the PC
	m = wordsMachine(t, isa.GFX9, 0, wJoin, wEnd)
	m.SetMode(1 << ref.ModeCSPShift)
	m.SetSGPR(10, 0)
	m.SetSGPR(2, 0x1234)
	if _, err := m.Step(); err == nil || !strings.Contains(err.Error(), "0x1234") {
		t.Fatalf("join to 0x1234: err %v", err)
	}
}

// TestRFERestore: S_RFE_RESTORE_B64 returns to S0 like S_RFE_B64.
func TestRFERestore(t *testing.T) {
	m := wordsMachine(t, isa.GFX9, 0, wRFERestor, wEnd, wMovV0, wEnd)
	m.SetExec(1)
	m.SetSGPR(4, 0x8)
	m.SetSGPR(5, 0)
	m.SetSGPR(6, 1)
	r := mustStep(t, m)
	if m.PC() != 0x8 {
		t.Fatalf("pc %#x, want 0x8", m.PC())
	}
	if !strings.Contains(strings.Join(r.Notes, " "), "INST_ATC") {
		t.Errorf("notes %q do not mention INST_ATC", r.Notes)
	}
}

// TestForkErrors: a fork whose target is not an instruction, and a g_fork
// without its operands, stop with an ExecError naming the PC.
func TestForkErrors(t *testing.T) {
	back := asmWord{"s_cbranch_i_fork s[4:5], -2", []uint32{0xb804fffe}} // 0x4 + 4 - 8 = 0x0: the s_endpgm
	m := wordsMachine(t, isa.GFX8, 0, wEnd, back, wEnd)
	m.SetExec(1)
	m.SetSGPR(4, 1)
	if err := m.SetPC(4); err != nil {
		t.Fatal(err)
	}
	mustStep(t, m)
	if m.PC() != 0 {
		t.Fatalf("backward fork: pc %#x, want 0", m.PC())
	}

	m = wordsMachine(t, isa.GFX9, 0, wGFork, wEnd)
	m.SetExec(1)
	m.SetSGPR(4, 1)
	m.SetSGPR(6, 0x6) // inside the s_cbranch_g_fork
	_, err := m.Step()
	if err == nil || !strings.Contains(err.Error(), "pc 0x0: s_cbranch_g_fork") || !strings.Contains(err.Error(), "0x6") {
		t.Fatalf("fork to 0x6: err %v", err)
	}
}
