package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

var plain = NewStyles(ColorPlain)

func TestFormatValue(t *testing.T) {
	tests := []struct {
		v    uint32
		f    NumFormat
		want string
	}{
		{0xffffffff, FmtHex, "0xffffffff"},
		{0xffffffff, FmtSigned, "         -1"},
		{0xffffffff, FmtUnsigned, "4294967295"},
		{0x3f800000, FmtFloat, "          1"},
		{0x40490fdb, FmtFloat, "   3.141593"},
		{0x7f800000, FmtFloat, "       +Inf"},
		{12, FmtHex, "0x0000000c"},
	}
	for _, tt := range tests {
		if got := formatValue(tt.v, tt.f); got != tt.want {
			t.Errorf("formatValue(%#x, %v) = %q, want %q", tt.v, tt.f, got, tt.want)
		}
	}
}

func TestRenderMask(t *testing.T) {
	got := renderMask("exec", 0x00000000ffff000f, plain, 80)
	want := []string{"exec ████············ ████████████████ ················ ················ 20"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("wide:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := renderMask("vcc", 1<<63, plain, 40); len(got) != 2 || !strings.HasSuffix(got[1], "█") {
		t.Errorf("narrow: %q", got)
	}
}

func TestRenderSGPRs(t *testing.T) {
	v := &SGPRView{Format: FmtHex, Cursor: -1, Regs: []RegCell{
		{Name: "s0", Value: 1}, {Name: "s1", Value: 2, Changed: true}, {Name: "s2", Pending: true},
		{Name: "vcc_lo", Value: 0xff},
	}}
	got := strings.Join(renderSGPRs(v, plain, 40), "\n")
	want := "s0 0x00000001  s2 0x00000000~\ns1 0x00000002*\nvcc_lo 0x000000ff "
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestRenderVGPRs(t *testing.T) {
	vals := make([][]uint32, 2)
	for r := range vals {
		vals[r] = make([]uint32, 64)
		for l := range vals[r] {
			vals[r][l] = uint32(r*100 + l)
		}
	}
	v := &VGPRView{Values: vals, Exec: 0b101, Changed: []uint64{0, 1}, Pending: []bool{true, false}, Format: FmtUnsigned, RegCursor: 5, LaneCursor: 9}
	// Three rows: one band of lanes.
	got := strings.Join(renderVGPRs(v, plain, 0, 0, 3, 40), "\n")
	want := "              L0        -L1         L2\n" +
		"v0  ~          0          1          2\n" +
		"v1  *        100        101        102"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Seven rows: the registers repeat below for the next lanes.
	got = strings.Join(renderVGPRs(v, plain, 0, 0, 7, 40), "\n")
	want += "\n             -L3        -L4        -L5\n" +
		"v0  ~          3          4          5\n" +
		"v1  *        103        104        105"
	if got != want {
		t.Errorf("bands: got\n%s\nwant\n%s", got, want)
	}
	// Wider, a band holds a power of two of lanes when that costs little:
	// ten lanes fit, eight are shown, so L8 starts the second band.
	got = strings.Join(renderVGPRs(v, plain, 0, 0, 6, 5+10*11), "\n")
	if ls := strings.Split(got, "\n"); len(ls) != 6 || !strings.HasSuffix(ls[0], "-L7") || !strings.Contains(ls[3], " -L8 ") {
		t.Errorf("power-of-two bands:\n%s", got)
	}
	v.AllLanes, v.RegCursor = true, 1
	if got := renderVGPRs(v, plain, 0, 0, 10, 100); len(got) != 9 || !strings.HasPrefix(got[0], "v1 across all lanes") {
		t.Errorf("all lanes: %q", got)
	}
}

func TestRenderCounters(t *testing.T) {
	v := &CountersView{Cycle: 10, LGKM: 1, Wait: "s_waitcnt lgkmcnt(0)", Stalled: true, StallUntil: 210,
		Ops: []InFlight{{Inst: "s_load_dword s6, s[0:1], 0x8", Counter: "lgkm", Dests: "s6", Done: 210, Blocks: true}}}
	got := strings.Join(renderCounters(v, plain, 80), "\n")
	for _, want := range []string{"lgkm_cnt 1", "stalls to cycle 210", "⧗  lgkm   210  s6", "s_load_dword s6"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestRenderCacheAddrMemWaves(t *testing.T) {
	c := &CacheView{LineSize: 64, Misses: 1, Lines: []CacheLine{{Index: 3, Tag: 0x1000, Valid: true, Event: "miss"}, {Index: 4}}, Evicted: []uint64{0x2000}}
	got := strings.Join(renderCache(c, plain, 60), "\n")
	if !strings.Contains(got, "  3 000000001000 V.. 0 miss") || !strings.Contains(got, "evicted 0x000000002000") || strings.Contains(got, "  4  ") {
		t.Errorf("cache:\n%s", got)
	}
	a := &AddrView{Inst: "s_load_dword s6, s[0:1], 0x8", Kind: "SMEM", Fields: []Field{{"sbase", "s[0:1]"}},
		Lanes: []LaneAddr{{Lane: 0, Addr: 0x1008, Active: true, InRange: true}, {Lane: 1, Addr: 0x9000, Active: true}}, Lines: []uint64{0x1000}}
	got = strings.Join(renderAddr(a, plain, 60), "\n")
	if !strings.Contains(got, "    1  0x9000  out of range") || !strings.Contains(got, "1 cache line(s): 0x000000001000") ||
		!strings.Contains(got, "2 lanes, 1 not in range") {
		t.Errorf("addr:\n%s", got)
	}
	// SMEM numbers its addresses by dword, each landing in an SGPR.
	a.Unit, a.Lanes[0].Dest, a.Lanes[1].Dest, a.Lanes[1].Why = "dword", "s6", "s7", "unmapped: faults"
	got = strings.Join(renderAddr(a, plain, 60), "\n")
	for _, want := range []string{"2 dwords, 1 not in range", "dword  address  → sgpr", "    0  0x1008  → s6", "    1  0x9000  → s7  unmapped: faults"} {
		if !strings.Contains(got, want) {
			t.Errorf("SMEM addr: no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "lane") {
		t.Errorf("SMEM addr says lane:\n%s", got)
	}
	// A wide pane sets the lanes side by side, down then across.
	a = &AddrView{Inst: "global_load_dword v1, v0, s[0:1]", Kind: "GLOBAL"}
	for l := range 4 {
		a.Lanes = append(a.Lanes, LaneAddr{Lane: l, Addr: 0x1000 + uint64(4*l), Active: true, InRange: true})
	}
	if got = strings.Join(renderAddr(a, plain, 40), "\n"); strings.Count(got, "address") != 1 {
		t.Errorf("four lanes in columns:\n%s", got)
	}
	for l := 4; l < 32; l++ {
		a.Lanes = append(a.Lanes, LaneAddr{Lane: l, Addr: 0x1000 + uint64(4*l), Active: true, InRange: true})
	}
	got = strings.Join(renderAddr(a, plain, 40), "\n")
	for _, want := range []string{" lane  address    lane  address", "    0  0x1000       16  0x1040", "   15  0x103c       31  0x107c"} {
		if !strings.Contains(got, want) {
			t.Errorf("lane columns: no %q in\n%s", want, got)
		}
	}
	wv0 := &WavesView{Rows: []WaveRow{{ID: 0, State: "done", Idle: true}, {ID: 1, Group: [3]int{1, 0, 0}, PC: 0x1500, State: "running"}, {ID: 2, Group: [3]int{2, 0, 0}, State: "not run", Idle: true}}, Selected: 1}
	got = strings.Join(renderWaves(wv0, plain, 40), "\n")
	for _, want := range []string{"  0 0,0,0    0 ------ done", "▸ 1 1,0,0    0 001500 running", "  2 2,0,0    0 ------ not run"} {
		if !strings.Contains(got, want) {
			t.Errorf("grid waves: no %q in\n%s", want, got)
		}
	}
	a = &AddrView{Inst: "ds_read_b32 v3, v1", Kind: "DS (LDS), next", LDS: true, Conflicts: 3,
		Lanes: []LaneAddr{{Lane: 0, Addr: 0x10, Active: true, InRange: true}}}
	got = strings.Join(renderAddr(a, plain, 60), "\n")
	if !strings.Contains(got, "LDS bank conflicts: +3 cycles") || strings.Contains(got, "cache line") {
		t.Errorf("LDS addr:\n%s", got)
	}
	mv := &MemView{Title: "buf", Base: 0x100, Data: []byte("ABCDEFGHIJKLMNOP"), Format: FmtHex}
	got = strings.Join(renderMemory(mv, plain, 5, 80), "\n")
	if !strings.Contains(got, "000000000100  41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP") {
		t.Errorf("memory:\n%s", got)
	}
	mv.Format = FmtUnsigned
	if got = strings.Join(renderMemory(mv, plain, 5, 80), "\n"); !strings.Contains(got, "1145258561") {
		t.Errorf("memory dwords:\n%s", got)
	}
	wv := &WavesView{Rows: []WaveRow{{ID: 0, PC: 0x1500, State: "running"}, {ID: 1, Wave: 1, PC: 0x1564, State: "ended"}}, Selected: 1}
	if got = strings.Join(renderWaves(wv, plain, 40), "\n"); !strings.Contains(got, "▸ 1    1 001564 ended") || strings.Contains(got, "group") {
		t.Errorf("waves:\n%s", got)
	}
	wv.Rows = append(wv.Rows, WaveRow{ID: 2, Group: [3]int{1, 0, 0}, PC: 0x1500, State: "barrier"})
	if got = strings.Join(renderWaves(wv, plain, 40), "\n"); !strings.Contains(got, "  2 1,0,0    0 001500 barrier") {
		t.Errorf("waves of two groups:\n%s", got)
	}
}

func TestFrame(t *testing.T) {
	got := frame(" t ", []string{"hello", "a much longer line than fits"}, plain, 12, 4, false)
	want := "┌─ t ──────┐\n│hello     │\n│a much lon│\n└──────────┘"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := frame("x", nil, plain, 1, 1, true); got != " " {
		t.Errorf("tiny frame %q", got)
	}
}

func TestParseRegRef(t *testing.T) {
	for in, want := range map[string]string{"s4": "s4", "v3": "v3", "v3[5]": "v3[5]", "vcc": "vcc_lo", "exec_hi": "exec_hi", "m0": "m0", "ttmp2": "ttmp2"} {
		r, err := ParseRegRef(in)
		if err != nil || r.String() != want {
			t.Errorf("%s: %v %v, want %s", in, r, err, want)
		}
	}
	for _, bad := range []string{"", "x1", "s4[2]", "v1[64]", "v999", "ttmp99"} {
		if _, err := ParseRegRef(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestCellWidth checks the fast width against ansi.StringWidth on every line
// of coloured frames.
func TestCellWidth(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		m := New(openSample(t), Options{Color: ColorFull})
		m.Update(winSize(sz[0], sz[1]))
		m.stepN(2)
		m.showHelp = false
		for _, l := range strings.Split(m.Render(), "\n") {
			if got, want := cellWidth(l), ansi.StringWidth(l); got != want || got != sz[0] {
				t.Fatalf("%v: cellWidth %d, ansi %d, want %d: %q", sz, got, want, sz[0], l)
			}
		}
	}
	for _, s := range []string{"", "abc", "\x1b[1mbold\x1b[0m", "▶ ● ⧗ █·", "\x1b]8;;http://x\x07link\x1b]8;;\x07", "日本"} {
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}

func TestSGPRCursorRow(t *testing.T) {
	v := &SGPRView{Format: FmtHex}
	for i := 0; i < 20; i++ {
		v.Regs = append(v.Regs, RegCell{Name: "s" + string(rune('0'+i%10))})
	}
	v.Regs = append(v.Regs, RegCell{Name: "vcc_lo"}, RegCell{Name: "m0"})
	for _, w := range []int{20, 40, 80} {
		lines := renderSGPRs(v, plain, w)
		for c := range v.Regs {
			v.Cursor = c
			r := sgprCursorRow(v, w)
			if r < 0 || r >= len(lines) || !strings.Contains(lines[r], v.Regs[c].Name) {
				t.Errorf("w %d cursor %d (%s): row %d", w, c, v.Regs[c].Name, r)
			}
		}
	}
}

// TestWavesPaneWindow lists a large grid: only the rows on screen are
// drawn, the selection is brought into view, the wheel scrolls and a click
// selects the row under it.
func TestWavesPaneWindow(t *testing.T) {
	p := &wavesPane{Common: &Common{Styles: plain, Keys: DefaultKeyMap()}}
	p.SetSize(30, 6)
	f := &Frame{}
	for i := range 4096 {
		f.Waves.Rows = append(f.Waves.Rows, WaveRow{ID: i, Group: [3]int{i / 4, 0, 0}, Wave: i % 4, State: "not run", Idle: true})
	}
	f.Waves.Selected, f.Waves.Total = 2050, 10000 // the rows are a window of the grid
	got := p.Render(f)
	if len(got) != 6 || !strings.HasPrefix(got[0], "   id group") || !strings.Contains(strings.Join(got, "\n"), "▸2050 512,0,0    2") {
		t.Fatalf("window:\n%s", strings.Join(got, "\n"))
	}
	p.Scroll(3)
	got = p.Render(f)
	if !strings.Contains(got[1], "2051 512,0,0") {
		t.Errorf("after the wheel:\n%s", strings.Join(got, "\n"))
	}
	cmd := p.Click(3, 2, f)
	if cmd == nil {
		t.Fatal("click selected nothing")
	}
	if msg, ok := cmd().(selectWaveMsg); !ok || msg.index != 2052 {
		t.Errorf("click: %+v", cmd())
	}
	// The end key goes to the grid's last wave, past the window.
	cmd, _ = p.HandleKey(tea.KeyPressMsg{Code: tea.KeyEnd}, f)
	if msg, ok := cmd().(selectWaveMsg); !ok || msg.index != 9999 {
		t.Errorf("end: %+v", cmd())
	}
}
