package emu

import (
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// gfx900 encodings for the in-flight streams.
func encGlobalLoad(vdst int) []byte { return encPair(0xdc508000, 0x007f0002|uint32(vdst)<<24) } // global_load_dword vN, v[2:3], off
func encGlobalStore(vdata int) []byte {
	return encPair(0xdc708100, 0x007f0002|uint32(vdata)<<8) // global_store_dword v[2:3], vN, off offset:256
}
func encDSRead(vdst int) []byte   { return encPair(0xd86c0000, uint32(vdst)<<24|1) } // ds_read_b32 vN, v1
func encDSWrite(vdata int) []byte { return encPair(0xd81a0000, uint32(vdata)<<8|1) } // ds_write_b32 v1, vN
func encWaitcnt(vm, lgkm int) []byte {
	return enc32(0xbf8c0000 | uint32(vm&15) | uint32(vm>>4)<<14 | 7<<4 | uint32(lgkm)<<8) // s_waitcnt vmcnt(vm) lgkmcnt(lgkm)
}
func encPair(a, b uint32) []byte { return binary.LittleEndian.AppendUint32(enc32(a), b) }

// inflightStream is a random stream of vector loads and stores, LDS reads
// and writes, scalar loads (hits and misses), s_waitcnt on either counter,
// s_nop and s_sleep (the clock overtaking some completions), and reads of
// registers whose loads may still be in flight.
func inflightStream(r *rand.Rand) []byte {
	var text []byte
	for k := 0; k < 40; k++ {
		switch r.IntN(10) {
		case 0:
			text = append(text, encGlobalLoad(4+r.IntN(4))...)
		case 1:
			text = append(text, encGlobalStore(4+r.IntN(4))...)
		case 2:
			text = append(text, encDSRead(8+r.IntN(4))...)
		case 3:
			text = append(text, encDSWrite(8+r.IntN(4))...)
		case 4:
			text = append(text, encSMEM(smemOpLoad+r.IntN(3), 12+4*r.IntN(3), 4, false, uint32(4*r.IntN(0x60)))...)
		case 5, 6:
			text = append(text, encWaitcnt(r.IntN(4), r.IntN(4))...)
		case 7:
			if r.IntN(2) == 0 {
				text = append(text, enc32(0xbf800000|uint32(r.IntN(16)))...) // s_nop
			} else {
				text = append(text, enc32(0xbf8e0000|uint32(1+r.IntN(6)))...) // s_sleep: 64–384 cycles
			}
		case 8: // v_add_u32_e32 v12+, v4+, v8+
			text = append(text, enc32(0x68000000|uint32(12+r.IntN(4))<<17|uint32(8+r.IntN(4))<<9|uint32(256+4+r.IntN(4)))...)
		case 9: // s_add_u32 s40, s12+, s13+
			text = append(text, enc32(0x80000000|40<<16|uint32(13+r.IntN(8))<<8|uint32(12+r.IntN(8)))...)
		}
	}
	return append(text, enc32(0xbf810000)...) // s_endpgm
}

// inflightMachine runs text over a global buffer, LDS and scalar
// arguments, with history or without.
func inflightMachine(t *testing.T, text []byte, seed uint64, hist bool) *Machine {
	r := rand.New(rand.NewPCG(seed, seed^0xfeed))
	mem := core.NewMemory()
	for _, a := range []struct {
		name       string
		addr, size uint64
	}{{"buf", vfA, 0x2000}, {"lds", core.SharedApertureBase, 1 << 16}, {"args", 0x10000, 0x400}} {
		if err := mem.Map(a.name, a.addr, a.size, false); err != nil {
			t.Fatal(err)
		}
		data := make([]byte, min(a.size, 0x2000))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		mem.Write(a.addr, data)
	}
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.Cache = CacheConfig{Size: 512, Ways: 2}
	if !hist {
		cfg.HistoryBytes = 0
	}
	m := NewMachine(DecodeProgram(isa.GFX9, 0, text), mem, cfg)
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1 << 16), Cfg: VMemConfig{LDSLatency: uint64(1 + r.IntN(300))}, Ops: map[*isa.Inst]*ref.VmOp{}}
	for l := 0; l < 64; l++ {
		a := uint64(vfA) + 4*uint64(l)
		m.w.V[1][l] = 4 * uint32(r.IntN(0x400))
		m.w.V[2][l], m.w.V[3][l] = uint32(a), uint32(a>>32)
		for v := 4; v < 16; v++ {
			m.w.V[v][l] = r.Uint32()
		}
	}
	m.SetSGPR(4, 0x10000)
	m.SetExec(r.Uint64() | 1)
	return m
}

// TestInFlightMatchesStep: with operations of both counters in flight —
// vector loads and stores completing in order, LDS and scalar loads
// overtaking each other — Run without history (pushOp, issued, retire,
// complete and s_waitcnt unjournaled) leaves exactly the state journaled
// Step leaves, stopped part-way (operations still in flight) and at the
// end.
func TestInFlightMatchesStep(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for trial := 0; trial < 300; trial++ {
		text := inflightStream(r)
		seed, stop := r.Uint64(), int64(1+r.IntN(40))
		var ms [2]*Machine
		for k, hist := range []bool{true, false} {
			ms[k] = inflightMachine(t, text, seed, hist)
		}
		for phase, budget := range []int64{stop, 0} {
			var errs [2]error
			for k, m := range ms {
				errs[k] = runFor(m, k == 0, budget)
			}
			if d := diffRuns(ms, errs, [2]uint64{vfA, 0x2000}, [2]uint64{core.SharedApertureBase, 1 << 16}); d != "" {
				t.Fatalf("trial %d phase %d: %s", trial, phase, d)
			}
		}
	}
}

// TestInFlightStreamEncodings: the stream's encodings decode to the
// intended operations.
func TestInFlightStreamEncodings(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		want string
	}{
		{encGlobalLoad(5), "global_load_dword"},
		{encGlobalStore(6), "global_store_dword"},
		{encDSRead(9), "ds_read_b32"},
		{encDSWrite(9), "ds_write_b32"},
		{encWaitcnt(2, 1), "s_waitcnt"},
		{enc32(0xbf8e0003), "s_sleep"},
		{enc32(0xbf800003), "s_nop"},
		{enc32(0x68000000 | 12<<17 | 8<<9 | 260), "v_add_u32"},
		{enc32(0x80000000 | 40<<16 | 13<<8 | 12), "s_add_u32"},
	} {
		in, err := isa.Decode(tc.b, isa.GFX9)
		if err != nil || opName(in.Op) != tc.want {
			t.Errorf("% x: %v %v, want %s", tc.b, opName(in.Op), err, tc.want)
		}
	}
}

// completions records the ids VectorMemory.Complete receives.
type completions struct{ ids []uint64 }

func (c *completions) Execute(w *Wave, inst *isa.Inst) error { return nil }
func (c *completions) Complete(w *Wave, id uint64)           { c.ids = append(c.ids, id) }

// TestRetireOrder: retire completes operations as the rule says — LGKM ones
// when their cycle comes, VM ones when theirs has come and no older VM one
// is still in flight — checked against a direct model on random issues of
// varied latencies, with and without the journal.
func TestRetireOrder(t *testing.T) {
	type op struct {
		id, done uint64
		vm       bool
	}
	r := rand.New(rand.NewPCG(41, 42))
	for trial := 0; trial < 500; trial++ {
		m := NewMachine(nil, nil, core.DefaultConfig(isa.GFX9))
		rec := &completions{}
		m.VectorMemory = rec
		w := m.w
		w.JOn = r.IntN(2) == 0
		var model []op
		var want []uint64
		for k := 0; k < 30; k++ {
			if r.IntN(3) > 0 {
				cnt := isa.CntLGKM
				if r.IntN(2) == 0 {
					cnt = isa.CntVM
				}
				lat := uint64(r.IntN(100))
				id := ref.IssueVector(w, cnt, 1, lat)
				model = append(model, op{id, w.Clock() + lat, cnt == isa.CntVM})
				continue
			}
			w.SetClock(w.Clock() + uint64(r.IntN(60)))
			w.Retire()
			// the model: complete the first eligible operation in issue
			// order until none is
			for i := 0; i < len(model); {
				o := model[i]
				older := false
				for _, p := range model[:i] {
					older = older || p.vm
				}
				if o.done > w.Clock() || o.vm && older {
					i++
					continue
				}
				want = append(want, o.id)
				model = append(model[:i], model[i+1:]...)
				i = 0
			}
			if !reflect.DeepEqual(rec.ids, want) || len(w.Pend) != len(model) {
				t.Fatalf("trial %d: completed %v, want %v (%d in flight, want %d)", trial, rec.ids, want, len(w.Pend), len(model))
			}
			if c := w.Counters(); c.VM+c.LGKM != len(model) {
				t.Fatalf("trial %d: counters %+v, %d in flight", trial, c, len(model))
			}
		}
	}
}

// TestRetireCount: retire completes the operations whose cycle has come
// (VM ones only behind no VM operation left in flight) and leaves what
// outstanding reports: retireCount's counts, and Machine.due its next
// cycle.
func TestRetireCount(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	cnts := []isa.Counters{isa.CntVM, isa.CntLGKM, isa.CntEXP}
	for trial := 0; trial < 500; trial++ {
		m := NewMachine(hexProgram(t, isa.GFX9, hexEndpgm), nil, core.DefaultConfig(isa.GFX9))
		w := m.w
		now := uint64(r.IntN(100))
		w.SetClock(now)
		for range r.IntN(8) {
			p := w.PushOp(cnts[r.IntN(3)], uint8(1+r.IntN(3)), uint64(r.IntN(200)))
			w.Issued(p)
		}
		// the reference: what stays in flight
		var want []uint64
		vmLeft := false
		for _, p := range w.Pend {
			if p.Done > now || p.Cnt == isa.CntVM && vmLeft {
				want = append(want, p.Id)
				vmLeft = vmLeft || p.Cnt == isa.CntVM
			}
		}
		c := w.RetireCount()
		var got []uint64
		for _, p := range w.Pend {
			got = append(got, p.Id)
		}
		wc, next := w.Outstanding()
		if !reflect.DeepEqual(got, want) || c != wc || m.Due != next {
			t.Fatalf("trial %d: left %v, want %v; counts %+v, outstanding %+v; due %d, next %d", trial, got, want, c, wc, m.Due, next)
		}
	}
}

// TestInFlightStepBack: stepping back through random streams of loads,
// stores and waits, whose retires take several operations off the list at
// once and out of order, restores the in-flight list and the registers
// exactly.
func TestInFlightStepBack(t *testing.T) {
	type state struct {
		s    [core.NumSlots]uint32
		v    [16][64]uint32
		pend []core.PendingOp
	}
	// only an operation's first n dwords of data mean anything
	inFlight := func(w *Wave) []core.PendingOp {
		ps := append([]core.PendingOp(nil), w.Pend...)
		for i := range ps {
			clear(ps[i].Data[ps[i].N:])
		}
		return ps
	}
	r := rand.New(rand.NewPCG(61, 62))
	for trial := 0; trial < 100; trial++ {
		m := inflightMachine(t, inflightStream(r), r.Uint64(), true)
		var states []state
		for m.State() == core.Running && len(states) < 200 {
			st := state{s: m.w.S, pend: inFlight(m.w)}
			copy(st.v[:], m.w.V[:16])
			states = append(states, st)
			if _, err := m.Step(); err != nil {
				break
			}
		}
		for i := len(states) - 1; i >= 0; i-- {
			if err := m.StepBack(); err != nil {
				t.Fatalf("trial %d: step back %d: %v", trial, i, err)
			}
			got := state{s: m.w.S, pend: inFlight(m.w)}
			copy(got.v[:], m.w.V[:16])
			if !reflect.DeepEqual(got, states[i]) {
				t.Fatalf("trial %d: the state after stepping back to %d differs", trial, i)
			}
		}
	}
}
