package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// stepPast steps d until the instruction whose text starts with inst (the
// n-th such, from 1) has executed.
func stepPast(t *testing.T, d *EmuDebuggee, inst string, n int) {
	t.Helper()
	for range 1000 {
		pc, ok := d.PC()
		if !ok {
			break
		}
		text := ""
		for _, l := range d.Program() {
			if l.Addr == pc {
				text = l.Text
			}
		}
		if err := d.Step(); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(text, inst) {
			if n--; n == 0 {
				return
			}
		}
	}
	t.Fatalf("%q did not execute", inst)
}

// cachePane fills d's frame and draws the scalar-cache pane without colour.
func cachePane(d *EmuDebuggee, w int) string {
	var f Frame
	d.Fill(&f)
	return strings.Join(renderCache(&f.Cache, plain, w), "\n")
}

func bufferAddr(t *testing.T, d *EmuDebuggee, name string) uint64 {
	t.Helper()
	for _, b := range d.Buffers() {
		if b.Name == name {
			return b.Addr
		}
	}
	t.Fatalf("no buffer %q", name)
	return 0
}

func wantAll(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, s := range want {
		if !strings.Contains(got, s) {
			t.Errorf("%s: no %q in\n%s", what, s, got)
		}
	}
}

// TestCachePaneShowsLineContents: scalar_cache's walkthrough step 5 (the
// vector store) leaves the scalar line at data+0x00 holding 0xc0de0000,
// marked stale; step 6's load reads it and the pane names that line.
func TestCachePaneShowsLineContents(t *testing.T) {
	d := openBundled(t, "scalar_cache")
	data := bufferAddr(t, d, "data")
	stepPast(t, d, "global_store_dword", 1)
	got := cachePane(d, 60)
	wantAll(t, "after the vector store", got,
		fmt.Sprintf("%012x V..", data),
		"    +00 c0de0000!c0de0004 c0de0008", // the stale dword, marked without colour
		fmt.Sprintf("%012x V..", data+0x40), "    +00 c0de0040 c0de0044",
		"miss @", "! stale dword")
	stepPast(t, d, "s_load_dword s12", 1)
	got = cachePane(d, 60)
	wantAll(t, "the stale hit", got,
		fmt.Sprintf("%012x V.. 0 hit ← stale", data),
		fmt.Sprintf("stale: 0x%x read 0xc0de0000 from line 0x%x; memory holds 0x0000600d", data, data))
	// A narrow pane wraps a line's dwords.
	if got = cachePane(d, 30); !strings.Contains(got, "    +00 c0de0000!c0de0004\n    +08 c0de0008 c0de000c") {
		t.Errorf("narrow pane:\n%s", got)
	}
}

// TestCachePaneShowsInvalidate: after s_dcache_inv the pane says how many
// lines were dropped and lists them with their invalidate event, not
// "empty".
func TestCachePaneShowsInvalidate(t *testing.T) {
	d := openBundled(t, "scalar_cache")
	data := bufferAddr(t, d, "data")
	stepPast(t, d, "s_dcache_inv", 1)
	got := cachePane(d, 60)
	wantAll(t, "after s_dcache_inv", got, "inv: 3 lines dropped",
		fmt.Sprintf("%012x ... 0 invalidate", data), fmt.Sprintf("%012x ...", data+0x40))
	if strings.Contains(got, "empty") || strings.Contains(got, "c0de0000") {
		t.Errorf("dropped lines shown as empty or with data:\n%s", got)
	}
}

// TestCachePaneShowsWriteBack: the scalar store leaves its dword dirty
// (marked *), and s_dcache_wb writes it back: a write-back event and note,
// and the line clean.
func TestCachePaneShowsWriteBack(t *testing.T) {
	d := openBundled(t, "scalar_cache")
	data := bufferAddr(t, d, "data")
	stepPast(t, d, "s_store_dword", 1)
	got := cachePane(d, 60)
	wantAll(t, "after s_store_dword", got, fmt.Sprintf("%012x VD. 0 miss", data+0x80), "    +00 00005ca1*c0de0084", "* dirty dword")
	stepPast(t, d, "s_dcache_wb", 1)
	got = cachePane(d, 60)
	wantAll(t, "after s_dcache_wb", got, fmt.Sprintf("wb: line 0x%x written back (1 dirty dword)", data+0x80),
		fmt.Sprintf("%012x V.. 0 write-back", data+0x80), "    +00 00005ca1 c0de0084")
}

// TestHazardMarkedOnDisassembly: in missing_waitcnt the s_add_u32 that
// reads s8 while its load is in flight, and that load, are marked in the
// disassembly pane, with a text marker that needs no colour.
func TestHazardMarkedOnDisassembly(t *testing.T) {
	d := openBundled(t, "missing_waitcnt")
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(200, 50))
	if s := m.Render(); strings.Contains(s, "⚠") {
		t.Errorf("hazard marked before it happens:\n%s", s)
	}
	stepPast(t, d, "s_add_u32", 1)
	m.refresh()
	s := m.Render()
	for _, want := range []string{
		"  ⚠001514  s_add_u32 s9, s8, 1  ⚠ read s8 early (load 0x150c)",
		"  ⚠00150c  s_load_dword s8, s[4:5], 0x0  ⚠ raced by 0x1514 (s8)",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in\n%s", want, s)
		}
	}
	// The s_add_u32 after the s_waitcnt reads s8 safely: no mark.
	stepPast(t, d, "s_add_u32", 1)
	m.refresh()
	if s := m.Render(); strings.Contains(s, "⚠00151c") || strings.Count(s, "⚠0") != 2 {
		t.Errorf("marks after the safe read:\n%s", s)
	}
}

// TestFlowScalarCacheStale drives the debugger over scalar_cache as a
// person would, to the load that hits the stale line (walkthrough step 6),
// and compares the whole screen with its golden file.
func TestFlowScalarCacheStale(t *testing.T) {
	m := New(openBundled(t, "scalar_cache"), Options{Color: ColorPlain})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(200, 60))
	for range 16 {
		send(tm, "s")
	}
	waitFor(t, tm, "step 16")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	got := fm.Render()
	for _, want := range []string{"hit ← stale", "stale: 0x100000000 read", "0x0000600d", "+00 c0de0000!c0de0004"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q on the screen", want)
		}
	}
	golden.RequireEqual(t, got)
}

// TestCachePaneHighlightsEvents: invalidate, write-back and stale notes and
// line events are styled like hits and misses, and the dirty and stale
// marks stay when colour is off (NO_COLOR).
func TestCachePaneHighlightsEvents(t *testing.T) {
	v := &CacheView{LineSize: 64, Notes: []CacheNote{{"invalidate", "inv: 1 line dropped"},
		{"write-back", "wb: line 0x80 written back (1 dirty dword)"}, {"stale", "stale: 0x0 read"}}}
	for _, ev := range []string{"hit", "miss", "invalidate", "write-back", "discard"} {
		v.Lines = append(v.Lines, CacheLine{Tag: 0x40, Valid: true, Event: ev})
	}
	v.Lines = append(v.Lines, CacheLine{Tag: 0x80, Valid: true, Dirty: true, Data: make([]uint32, 16), DirtyDwords: 1, StaleDwords: 2})
	full := renderCache(v, NewStyles(ColorFull), 200)
	for _, l := range full {
		if (strings.Contains(l, "inv:") || strings.Contains(l, "wb:") || strings.Contains(l, "stale:") ||
			strings.HasSuffix(l, " hit") || strings.HasSuffix(l, " invalidate") || strings.HasSuffix(l, " write-back")) && !strings.Contains(l, "\x1b[") {
			t.Errorf("not highlighted: %q", l)
		}
	}
	mono := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(strings.Join(renderCache(v, NewStyles(ColorMono), 200), "\n"), "")
	if !strings.Contains(mono, "00000000*") || !strings.Contains(mono, "00000000!") {
		t.Errorf("dirty/stale marks lost without colour:\n%s", mono)
	}
}
