package emu

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// awEdges are the addresses FuzzAddressNearEdges works near: 0 (and so,
// below it, 2^64), the ends of the mappings and the LDS limit.
var awEdges = []uint64{0, 0x2000, awMid, awMid + 0x1000, awTop, awLDSLim}

// awSetup returns the registers of a run of k: lane l's address part is
// edge + delta + l·step, aux picks the buffer fields, SOFFSET and the
// scratch offset.
func awSetup(k *awKind, edge uint64, delta int64, step int8, exec uint64, aux uint32) *awRegs {
	r := &awRegs{exec: exec}
	if r.exec == 0 {
		r.exec = ^uint64(0)
	}
	a := edge + uint64(delta)
	for l := range 64 {
		x := a + uint64(int64(l)*int64(step))
		for d := 4; d < 8; d++ {
			r.v[d][l] = uint32(l)*0x01010101 + uint32(d)<<28 + 0x00302010
		}
		switch k.mode {
		case awFlat:
			r.v[2][l], r.v[3][l] = uint32(x), uint32(x>>32)
		case awGlobalS:
			r.v[2][l] = uint32(0x8000 + int64(l)*int64(step))
		case awScratch:
			r.v[2][l] = uint32(int64(aux&7) - k.off + int64(l)*int64(step)) // private offset aux&7 + l·step
		case awBuf:
			r.v[2][l] = uint32(int64(l) * int64(step))
			r.v[3][l] = uint32(int64(aux>>24) + int64(l)*int64(step))
		case awDS:
			r.v[2][l] = uint32(x)
		}
	}
	for i := range 4 {
		r.s[i] = 0xdead_0000 + uint32(i)
	}
	r.s[4], r.s[5] = uint32(a), uint32(a>>32)
	r.s[6], r.s[7] = uint32(a-0x8000), uint32((a-0x8000)>>32)
	// the V#: base a (48 bits), STRIDE, NUM_RECORDS; 32-bit unsigned dwords
	stride := []uint32{0, 0, 4, 16}[aux>>22&3]
	num := []uint32{0xffff_ffff, aux >> 8 & 0xfff, 0x1000, 0}[aux>>20&3]
	r.s[12], r.s[13], r.s[14] = uint32(a), uint32(a>>32)&0xffff|stride<<16, num
	r.s[15] = 4 | 5<<3 | 6<<6 | 7<<9 | 4<<12 | 4<<15
	r.s[16] = aux & 0x7f
	r.scratch = a
	return r
}

// awLoad puts r in m.
func awLoad(m *Machine, r *awRegs) {
	w := m.w
	m.SetExec(r.exec)
	for d := range r.v {
		w.V[d] = r.v[d]
	}
	copy(w.S[:len(r.s)], r.s[:])
	w.S[core.CodeFlatScratch], w.S[core.CodeFlatScratch+1] = uint32(r.scratch), uint32(r.scratch>>32)
	m.VectorMemory.(*ref.VMemUnit).Scratch = r.scratch
}

// awPages are the layout's filled pages, made once.
var awPages = sync.OnceValue(func() map[uint64]*[core.PageSize]byte {
	pages := map[uint64]*[core.PageSize]byte{}
	for _, mp := range awMaps {
		for a := mp.addr; a-mp.addr < mp.fill; a++ {
			pg := pages[a>>core.PageBits]
			if pg == nil {
				pg = new([core.PageSize]byte)
				pages[a>>core.PageBits] = pg
			}
			pg[a&(core.PageSize-1)] = awPattern(a)
		}
	}
	return pages
})

// awMemory builds the layout.
func awMemory(t testing.TB) *Memory {
	t.Helper()
	mem := core.NewMemory()
	for _, mp := range awMaps {
		if err := mem.Map(mp.name, mp.addr, mp.size, false); err != nil {
			t.Fatal(err)
		}
	}
	awRestore(mem)
	return mem
}

// awRestore gives mem's mapped bytes the layout's values again.
func awRestore(mem *Memory) {
	pages := awPages()
	for _, mp := range awMaps {
		for pn := mp.addr >> core.PageBits; pn <= (mp.addr+mp.size-1)>>core.PageBits; pn++ {
			if pg := pages[pn]; pg != nil {
				*mem.Page(pn, true) = *pg
			} else if pg := mem.Page(pn, false); pg != nil {
				*pg = [core.PageSize]byte{}
			}
		}
	}
}

// awRig runs one kind in step mode and in fast mode: a machine for each,
// reset for every run, over memory restored to the layout.
type awRig struct {
	k  *awKind
	ms [2]*Machine
}

func newAWRig(t testing.TB, k *awKind) *awRig {
	g := &awRig{k: k}
	for i, hist := range []bool{true, false} {
		g.ms[i] = awMachine(t, awMemory(t), hist, 0, k.enc)
	}
	return g
}

// awByte is the byte the layout starts with at a.
func awByte(a uint64) byte {
	for _, mp := range awMaps {
		if a-mp.addr < mp.fill {
			return awPattern(a)
		}
	}
	return 0
}

// check runs the rig's kind from r in step mode and in fast mode and
// reports how either differs from the model, or "".
func (g *awRig) check(r *awRegs) string {
	k := g.k
	want := awFault(k, r)
	var errs [2]error
	var addrs []LaneAddr
	for i, m := range g.ms {
		awRestore(m.Mem)
		m.Reset()
		m.VectorMemory = awUnit(0)
		awLoad(m, r)
		if i == 0 {
			addrs, errs[i] = awRun(m, true)
		} else {
			_, errs[i] = awRun(m, false)
		}
	}
	if d := awRecords(k, addrs, want); d != "" {
		return "step mode: " + d
	}
	for i, mode := range []string{"step", "fast"} {
		var f *Fault
		switch {
		case want == nil && errs[i] != nil:
			return fmt.Sprintf("%s mode: %v, want no fault", mode, errs[i])
		case want != nil && !errors.As(errs[i], &f):
			return fmt.Sprintf("%s mode: stopped with %v, want %v", mode, errs[i], want)
		case want != nil && *f != *want:
			return fmt.Sprintf("%s mode: %v, want %v", mode, f, want)
		}
	}
	if want != nil {
		return ""
	}
	for i, mode := range []string{"step", "fast"} {
		if d := awResults(k, r, g.ms[i]); d != "" {
			return mode + " mode: " + d
		}
	}
	return ""
}

// awRecords checks the addresses a step recorded: an access is marked
// unmapped exactly where it faults (the faulting lane, or the faulting
// dword of a scalar access).
func awRecords(k *awKind, addrs []LaneAddr, want *Fault) string {
	if k.mode == awDS {
		return ""
	}
	for _, a := range addrs {
		bad := want != nil && a.Lane == want.Lane
		if a.Lane < 0 {
			bad = bad && want.Addr-a.Addr < uint64(a.Size)
		}
		if a.Mapped == bad {
			return fmt.Sprintf("recorded %+v, want Mapped %v (fault %v)", a, !bad, want)
		}
	}
	return ""
}

// awResults compares what a run that did not fault loaded and stored with
// the model: loads read the layout's bytes (zero out of range; an
// S_BUFFER dword out of range is not written), stores and atomics (in
// lane order) change exactly their bytes.
func awResults(k *awKind, r *awRegs, m *Machine) string {
	shadow := map[uint64]byte{}
	at := func(a uint64) byte {
		if b, ok := shadow[a]; ok {
			return b
		}
		return awByte(a)
	}
	lanes := []int{-1}
	if k.mode != awSMEM && k.mode != awSBuf {
		lanes = nil
		for l := range 64 {
			if r.exec>>l&1 != 0 {
				lanes = append(lanes, l)
			}
		}
	}
	for _, l := range lanes {
		var got, want [4]uint32
		for _, p := range awPieces(k, r, l) {
			var b [8]byte
			switch {
			case k.atomic && p.in:
				old := binary.LittleEndian.Uint32([]byte{at(p.addr), at(p.addr + 1), at(p.addr + 2), at(p.addr + 3)})
				binary.LittleEndian.PutUint32(b[:], old+r.v[4][l])
				for i := range 4 {
					shadow[p.addr+uint64(i)] = b[i]
				}
			case k.store && p.in && k.mode != awSMEM: // S_STORE stays in the scalar cache
				binary.LittleEndian.PutUint32(b[:], r.v[4+p.reg][l]) // dword reg (ds_write2: part reg)
				for i := range p.n {
					shadow[p.addr+uint64(i)] = b[i]
				}
			case !k.store && !k.atomic:
				if p.in {
					for i := range p.n {
						b[i] = at(p.addr + uint64(i))
					}
				}
				d := p.reg
				if k.mode == awDS {
					d *= 2
				}
				if k.mode == awSBuf && !p.in {
					want[d] = r.s[d]
				} else {
					want[d] = binary.LittleEndian.Uint32(b[:])
					if p.n == 8 {
						want[d+1] = binary.LittleEndian.Uint32(b[4:])
					}
				}
			}
		}
		if k.store || k.atomic {
			continue
		}
		for d := range k.size / 4 {
			if l < 0 {
				got[d] = m.w.S[d]
			} else {
				got[d] = m.w.V[4+d][l]
			}
		}
		if k.size < 4 {
			got[0] = m.w.V[4][l]
		}
		if got != want {
			return fmt.Sprintf("lane %d loaded %#x, want %#x", l, got, want)
		}
	}
	for a, b := range shadow {
		var g [1]byte
		m.Mem.ReadRaw(a, g[:])
		if g[0] != b {
			return fmt.Sprintf("byte at %#x is %#x after the store, want %#x", a, g[0], b)
		}
	}
	return ""
}

// awSteps are the lane patterns the table test tries: one lane, a whole
// wave of consecutive dwords, a wave walking down, and two lanes of one
// address.
var awSteps = []struct {
	exec uint64
	step int8
}{{1, 0}, {^uint64(0), 4}, {^uint64(0), -4}, {1<<63 | 1, 0}, {0xf0f0, 1}}

// TestAddressNearEdges: every memory kind, at addresses near 0, 2^64,
// the ends of mappings and the LDS limit, faults exactly when a byte it
// performs is unmapped (at that byte, on the first such lane), and
// otherwise loads and stores what the model says, alike in step and fast
// mode.
func TestAddressNearEdges(t *testing.T) {
	deltas := []int64{-0x100, -0x80, 0x7c, 0x100}
	for d := int64(-20); d <= 20; d++ {
		deltas = append(deltas, d)
	}
	for i := range awKinds {
		k := &awKinds[i]
		t.Run(k.asm, func(t *testing.T) {
			g := newAWRig(t, k)
			for _, edge := range awEdges {
				for _, d := range deltas {
					for si, s := range awSteps {
						aux := uint32(si)*0x1234567 ^ uint32(d)
						r := awSetup(k, edge, d, s.step, s.exec, aux)
						if msg := g.check(r); msg != "" {
							t.Fatalf("edge %#x%+d, exec %#x, step %d, aux %#x: %s", edge, d, s.exec, s.step, aux, msg)
						}
					}
				}
			}
		})
	}
}

// FuzzAddressNearEdges is TestAddressNearEdges over any kind, edge,
// offset from it, lane step, EXEC and buffer fields.
func FuzzAddressNearEdges(f *testing.F) {
	f.Add(uint8(1), uint8(0), int32(-4), int8(0), uint64(1), uint32(0))
	f.Add(uint8(28), uint8(0), int32(4), int8(0), uint64(1), uint32(0))
	f.Add(uint8(3), uint8(4), int32(0x1ff0), int8(4), ^uint64(0), uint32(0))
	f.Add(uint8(22), uint8(3), int32(-8), int8(4), uint64(0xff), uint32(0x3000000))
	var mu sync.Mutex
	rigs := make([]*awRig, len(awKinds)) // one per kind, reused
	f.Fuzz(func(t *testing.T, kind, edge uint8, delta int32, step int8, exec uint64, aux uint32) {
		i := int(kind) % len(awKinds)
		k := &awKinds[i]
		r := awSetup(k, awEdges[int(edge)%len(awEdges)], int64(delta%0x4000), step, exec, aux)
		mu.Lock()
		defer mu.Unlock()
		if rigs[i] == nil {
			rigs[i] = newAWRig(t, k)
		}
		if msg := rigs[i].check(r); msg != "" {
			t.Fatalf("%s: %s", k.asm, msg)
		}
	})
}
