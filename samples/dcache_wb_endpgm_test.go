package samples

import (
	"encoding/binary"
	"testing"
)

// TestDcacheWbEndpgmRunLeavesDirtyLineUnwritten checks the claim of
// dcache_wb_endpgm's last step against a whole dispatch (emu.RunGrid, what
// a run writes to data.bin), not only the one-wave machine the tour runs
// on: the store written back and the GLC store are in memory, the store
// still dirty at s_endpgm is not.
func TestDcacheWbEndpgmRunLeavesDirtyLineUnwritten(t *testing.T) {
	s, ok := Lookup("dcache_wb_endpgm")
	if !ok {
		t.Fatal("no sample dcache_wb_endpgm")
	}
	w, err := newWave(s, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gridTrace(w, 0, 0); err != nil {
		t.Fatal(err)
	}
	data := w.final["data"]
	if len(data) != 256 {
		t.Fatalf("data holds %d bytes after the run, want 256", len(data))
	}
	for i := range 64 {
		want := 0xc0de0000 + 4*uint32(i)
		switch i {
		case 0:
			want = 0x5ca1 // s_dcache_wb
		case 32:
			want = 0x600d // GLC store
		}
		if got := binary.LittleEndian.Uint32(data[4*i:]); got != want {
			t.Errorf("data[%d] = %#x after the run, want %#x", i, got, want)
		}
	}
}
