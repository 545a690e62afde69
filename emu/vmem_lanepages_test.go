package emu

import (
	"context"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// lanePagesProgram loads, stores and loads again one dword per lane, each
// lane in a page of its own (a private array indexed per lane looks like
// this), so the whole-wave path's per-lane page cache serves the second
// load.
var lanePagesProgram = []string{
	"global_load_dword v4, v[2:3], off",
	"s_waitcnt vmcnt(0)",
	"global_store_dword v[2:3], v5, off",
	"s_waitcnt vmcnt(0)",
	"global_load_dword v6, v[2:3], off",
	"s_waitcnt vmcnt(0)",
	"s_endpgm",
}

// lanePagesMachine sets lanePagesProgram up: lane l's address is in page
// l of a buffer at bufAddr, v5 = l + 1.
func lanePagesMachine(t *testing.T) *Machine {
	t.Helper()
	m := NewMachine(asmProgram(t, isa.GFX9, lanePagesProgram...), nil, DefaultConfig(isa.GFX9))
	if err := m.Mem.Map("buf", bufAddr, 65*core.PageSize, false); err != nil {
		t.Fatal(err)
	}
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1024), Cfg: VMemConfig{LDSLatency: 4}, Ops: map[*isa.Inst]*ref.VmOp{}}
	for l := 0; l < 64; l++ {
		a := uint64(bufAddr + l*core.PageSize + 4*(l%7))
		m.SetVGPR(2, l, uint32(a))
		m.SetVGPR(3, l, uint32(a>>32))
		m.SetVGPR(5, l, uint32(l+1))
	}
	return m
}

// TestLanePagesSeeStoreToUnwrittenPage: a page nobody has written reads as
// zero without existing; the per-lane page cache must not keep that
// stand-in, or the load after the store would read zeros.
func TestLanePagesSeeStoreToUnwrittenPage(t *testing.T) {
	m := lanePagesMachine(t)
	m.SetHistoryLimit(0) // Run takes the fast forms
	if _, err := m.Run(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	for l := 0; l < 64; l++ {
		before, _ := m.VGPR(4, l)
		after, _ := m.VGPR(6, l)
		if before != 0 || after != uint32(l+1) {
			t.Fatalf("lane %d: loaded %d before the store and %d after, want 0 and %d", l, before, after, l+1)
		}
		var b [4]byte
		a := bufAddr + l*core.PageSize + 4*(l%7)
		if err := m.Mem.Read(uint64(a), b[:]); err != nil || b != [4]byte{byte(l + 1)} {
			t.Fatalf("lane %d: memory at %#x holds % x (%v), want the stored %d", l, a, b, err, l+1)
		}
	}
	var z [4]byte // the last page of the buffer, which nobody wrote
	if err := m.Mem.Read(bufAddr+64*core.PageSize, z[:]); err != nil || z != [4]byte{} {
		t.Fatalf("an unwritten page reads % x (%v), want zeros", z, err)
	}
}

// TestLanePagesStoresLoggedWhileRecording: while a recording logs the
// pages a run writes, a store must not take a page the per-lane cache kept
// from a load (that would skip the log): going back to the start must
// restore every page the store wrote.
func TestLanePagesStoresLoggedWhileRecording(t *testing.T) {
	ctx := context.Background()
	m := lanePagesMachine(t)
	orig := make([]byte, 64*core.PageSize)
	for i := range orig {
		orig[i] = byte(i*7 + 1) // every page exists before the run
	}
	if err := m.Mem.Write(bufAddr, orig); err != nil {
		t.Fatal(err)
	}
	m.StartRecording(64 << 20)
	if _, err := m.Run(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if v, _ := m.VGPR(6, 9); v != 10 {
		t.Fatalf("lane 9 loaded %d after the store, want 10", v)
	}
	if _, err := m.ReverseStep(ctx, m.Steps()); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(orig))
	if err := m.Mem.Read(bufAddr, got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != orig[i] {
			t.Fatalf("byte %#x (page %d) is %#x after going back to the start, want %#x", bufAddr+i, i/core.PageSize, got[i], orig[i])
		}
	}
}
