package emu

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// TestNarrowRunsMatchLanes: the unit-step byte and short moves, which go
// eight bytes at a time, match a lane-by-lane move for every lane count,
// from any byte of a buffer, with and without the d16_hi shift and sign
// extension, and write no byte outside the run.
func TestNarrowRunsMatchLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 4000; i++ {
		n, at := rng.IntN(65), rng.IntN(16)
		shift := []uint{0, 16}[rng.IntN(2)]
		signed := rng.IntN(2) == 0
		var src [64]uint32
		var mem, want [2*64 + 32]byte
		for l := range src {
			src[l] = rng.Uint32()
		}
		for k := range mem {
			mem[k] = byte(rng.Uint32())
		}
		for _, size := range []int{1, 2} {
			// loads
			got, ref := make([]uint32, n), make([]uint32, n)
			if size == 1 {
				fast.LoadBytes(got, mem[at:], signed)
			} else {
				fast.LoadShorts(got, mem[at:], signed)
			}
			for l := range ref {
				x := uint32(mem[at+size*l])
				if size == 2 {
					x |= uint32(mem[at+2*l+1]) << 8
				}
				if signed {
					x = uint32(int32(x<<(32-8*size)) >> (32 - 8*size))
				}
				ref[l] = x
			}
			for l := range ref {
				if got[l] != ref[l] {
					t.Fatalf("size %d signed %v, %d lanes from byte %d: lane %d = %#x, want %#x", size, signed, n, at, l, got[l], ref[l])
				}
			}
			// stores
			buf := mem
			want = mem
			for l, x := range src[:n] {
				x >>= shift
				want[at+size*l] = byte(x)
				if size == 2 {
					want[at+2*l+1] = byte(x >> 8)
				}
			}
			p := unsafe.Pointer(&buf[at])
			if size == 1 {
				fast.StoreBytes(p, src[:n], shift)
			} else {
				fast.StoreShorts(p, src[:n], shift)
			}
			if buf != want {
				t.Fatalf("store size %d shift %d, %d lanes at byte %d:\n got %x\nwant %x", size, shift, n, at, buf, want)
			}
		}
	}
}

// TestResultReuse: result hands an operation already reserved its own
// slot again (a re-executed step), even with a free slot before it, and a
// new operation the first free slot.
func TestResultReuse(t *testing.T) {
	u := &ref.VMemUnit{}
	u.Result(1, 4, 1, 1, 0)
	u.Result(2, 5, 1, 1, 0)
	u.Pending[0].InUse = false // completed: free
	slot := func(r *ref.VmResult) int {
		return int((uintptr(unsafe.Pointer(r)) - uintptr(unsafe.Pointer(&u.Pending[0]))) / unsafe.Sizeof(*r))
	}
	if k := slot(u.Result(2, 5, 1, 1, 0)); k != 1 {
		t.Errorf("operation 2 got slot %d, not its own 1", k)
	}
	if k := slot(u.Result(3, 6, 1, 1, 0)); k != 0 {
		t.Errorf("operation 3 got slot %d, not the free 0", k)
	}
	if len(u.Pending) != 2 {
		t.Errorf("%d slots, want 2", len(u.Pending))
	}
}

// TestCompleteMatchesWv: Complete writes a load's data as wv writes each
// of its registers under its mask (d16 halves merged), with the journal on
// or off and whatever the mask: a whole wave's single register without
// the journal takes MoveRow. A store's id, which has no slot, writes
// nothing.
func TestCompleteMatchesWv(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		m := machine(t, I("s_endpgm"))
		w := m.w
		for r := range w.V {
			for l := range w.V[r] {
				w.V[r][l] = rng.Uint32()
			}
		}
		mask := []uint64{^uint64(0), rng.Uint64(), 0xffff, ^uint64(0) >> 1}[rng.IntN(4)]
		n, d16, vdst := 1+rng.IntN(4), uint8(rng.IntN(3)), []int{4, 200, 255}[rng.IntN(3)]
		if trial%2 == 0 {
			n, d16 = 1, 0
		}
		u := &ref.VMemUnit{}
		u.Reserve(7, 9, 1, ^uint64(0), 0) // another operation's slot first
		r := u.Reserve(8, vdst, n, mask, d16)
		for k := range r.Data {
			for l := range r.Data[k] {
				r.Data[k][l] = rng.Uint32()
			}
		}
		want := w.V
		for k := 0; k < n && vdst+k <= 255; k++ {
			for l := range 64 {
				if mask>>l&1 == 0 {
					continue
				}
				x := r.Data[k][l]
				switch d16 {
				case 1:
					x = want[vdst+k][l]&0xffff0000 | x&0xffff
				case 2:
					x = want[vdst+k][l]&0xffff | x<<16
				}
				want[vdst+k][l] = x
			}
		}
		w.JOn = trial%3 == 0
		u.Complete(w, 9) // a store's: no slot
		u.Complete(w, 8)
		if w.V != want {
			t.Fatalf("trial %d (n %d, d16 %d, v%d, mask %#x, journal %v): registers differ from wv's", trial, n, d16, vdst, mask, w.JOn)
		}
	}
}
