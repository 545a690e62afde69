package emu

import (
	"testing"
)

// A load that hits a clean line memory has changed under records a stale
// read, and the snapshot marks the line's stale dword; a scalar store marks
// its dword dirty, and the write-back writes exactly that dword.
func TestCacheStaleAndDirtyDwords(t *testing.T) {
	m := smemMachine(t, "s_load_dword s0, s[4:5], 0x0", "s_waitcnt lgkmcnt(0)",
		"s_load_dword s2, s[4:5], 0x4", "s_waitcnt lgkmcnt(0)",
		"s_store_dword s10, s[4:5], 0x40", "s_dcache_wb", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	m.SetSGPR(10, 0x5ca1)
	stepN(t, m, 2)
	m.Mem.WriteU32(bufAddr+4, 0x999) // as a vector store would
	line := func(addr uint64) CacheLine {
		t.Helper()
		for _, l := range m.Snapshot().Cache {
			if l.Valid && l.Addr == addr {
				return l
			}
		}
		t.Fatalf("no valid line 0x%x", addr)
		return CacheLine{}
	}
	if l := line(bufAddr); l.StaleDwords != 1<<1 || l.DirtyDwords != 0 {
		t.Errorf("stale line: StaleDwords %016b DirtyDwords %016b, want dword 1 stale", l.StaleDwords, l.DirtyDwords)
	}
	r := mustStep(t, m)
	want := StaleRead{Addr: bufAddr + 4, Line: bufAddr, Cached: m.w.S[2], Memory: 0x999}
	if len(r.Stale) != 1 || r.Stale[0].Addr != want.Addr || r.Stale[0].Line != want.Line || r.Stale[0].Memory != 0x999 {
		t.Errorf("Stale = %+v, want [%+v]", r.Stale, want)
	}
	stepN(t, m, 2)
	if l := line(bufAddr + 0x40); l.DirtyDwords != 1 || l.Dwords()[0] != 0x5ca1 {
		t.Errorf("dirty line: DirtyDwords %016b dword0 %#x, want dword 0 = 0x5ca1 dirty", l.DirtyDwords, l.Dwords()[0])
	}
	r = mustStep(t, m)
	if len(r.Mem) != 1 || r.Mem[0].ChangedDwords() != 1 {
		t.Errorf("write-back %+v: want one write of one changed dword", r.Mem)
	}
	if l := line(bufAddr + 0x40); l.DirtyDwords != 0 || l.StaleDwords != 0 {
		t.Errorf("after write-back: DirtyDwords %016b StaleDwords %016b, want clean", l.DirtyDwords, l.StaleDwords)
	}
}
