package emu

import (
	"context"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// groupLaunch is a launch of one work-group of waves waves running lines
// (assembled for gfx900) with scan_local's ABI: s[6:7] the kernarg
// pointer (in at 0, out at 8), v0 the work-item id, 1 KiB of LDS. Both
// buffers hold 64 dwords per wave; in[i] = i*3+1.
func groupLaunch(t testing.TB, waves int, lines ...string) *Launch {
	t.Helper()
	l := scanLaunch(t)
	l.Text = asmBytes(t, "gfx900", lines...)
	l.TextAddr = l.Kernel.Entry
	n := 64 * uint32(waves)
	l.Grid, l.Block, l.Dims = [3]uint32{n, 1, 1}, [3]uint32{n, 1, 1}, 1
	in := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(in[4*i:], i*3+1)
	}
	l.Args = []LaunchArg{{Kind: ArgBuffer, Data: in}, {Kind: ArgBuffer, Data: make([]byte, 4*n)}}
	return l
}

// scanLaunch is a Launch of scan_local (its text and arguments unset).
func scanLaunch(t testing.TB) *Launch {
	t.Helper()
	co, err := loader.Load("testdata/cl/gfx900/scan_local.co", loader.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { co.Close() })
	k := co.Kernel("scan_local")
	if k == nil {
		t.Fatal("no kernel scan_local")
	}
	text, err := co.Text.Data()
	if err != nil {
		t.Fatal(err)
	}
	return &Launch{Target: isa.GFX9, Version: co.Version, Kernel: k, Text: text, TextAddr: co.Text.Addr}
}

// openGroup opens a session on wave 0 of a groupLaunch.
func openGroup(t testing.TB, waves int, lines ...string) *Session {
	t.Helper()
	s, err := OpenSession(context.Background(), groupLaunch(t, waves, lines...), GridConfig{Config: core.DefaultConfig(isa.GFX9)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// groupPrologue loads the buffers' addresses (s[0:1] in, s[2:3] out),
// sets v1 to the work-item's byte offset (v0*4), v[2:3] to its in
// element's address and v[4:5] to its out element's, v6 to its LDS slot
// (v1 mod 1 KiB) and v7 to the next wave's slot.
var groupPrologue = []string{
	"s_load_dwordx4 s[0:3], s[6:7], 0x0",
	"s_waitcnt lgkmcnt(0)",
	"v_lshlrev_b32_e32 v1, 2, v0",
	"v_mov_b32_e32 v3, s1",
	"v_add_co_u32_e32 v2, vcc, s0, v1",
	"v_addc_co_u32_e32 v3, vcc, 0, v3, vcc",
	"v_mov_b32_e32 v5, s3",
	"v_add_co_u32_e32 v4, vcc, s2, v1",
	"v_addc_co_u32_e32 v5, vcc, 0, v5, vcc",
	"v_and_b32_e32 v6, 0x3fc, v1",
	"v_add_u32_e32 v7, 0x100, v6",
	"v_and_b32_e32 v7, 0x3fc, v7",
}

// groupState is a fingerprint of a session's whole group: every wave's
// snapshot and the pages written since recording began.
func groupState(s *Session) string {
	out := ""
	for i, m := range s.waves {
		out += fmt.Sprintf("wave %d: %+v\n", i, *m.Snapshot())
	}
	for _, pn := range s.rp.log.Pns {
		var b [core.PageSize]byte
		s.Memory.ReadRaw(pn<<core.PageBits, b[:])
		out += fmt.Sprintf("page %x: %x\n", pn, b)
	}
	return out
}

// condFunc is a Cond from a function.
type condFunc struct {
	name string
	f    func(m *Machine) (bool, error)
}

func (c condFunc) Holds(m *Machine) (bool, error) { return c.f(m) }
func (c condFunc) String() string                 { return c.name }

// sgprIs is the condition s[n] == v.
func sgprIs(n int, v uint32) Cond {
	return condFunc{fmt.Sprintf("s%d == %d", n, v), func(m *Machine) (bool, error) { return m.w.S[n] == v, nil }}
}
