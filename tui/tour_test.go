package tui

import (
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/samples"
)

// tourModel opens a bundled sample as `wavedbg --sample NAME` does, on a
// screen tall enough for the tour band.
func tourModel(t *testing.T, name string) *Model {
	t.Helper()
	m := New(openBundled(t, name), Options{Color: ColorPlain})
	m.Update(winSize(160, tourMinHeight))
	if m.tour == nil {
		t.Fatalf("%s opened without its tour", name)
	}
	return m
}

func press(m *Model, keys ...string) {
	for _, k := range keys {
		m.Update(keyMsg(k))
	}
}

// typeCommand types a ':' command and runs it.
func typeCommand(m *Model, line string) {
	press(m, ":")
	for _, r := range line {
		press(m, string(r))
	}
	press(m, "enter")
}

// TestTourStepsThroughSample presses t through missing_waitcnt's tour:
// every stop is reached, in order, and every claim is ticked.
func TestTourStepsThroughSample(t *testing.T) {
	m := tourModel(t, "missing_waitcnt")
	if !strings.Contains(m.Render(), "press t to run to the first step") {
		t.Fatalf("the tour band is not shown on opening:\n%s", m.Render())
	}
	for i, stop := range m.tour.stops {
		press(m, "t")
		if m.tour.cur != i {
			t.Fatalf("after %d presses the tour is at stop %d; %s", i+1, m.tour.cur, m.msg)
		}
		screen := m.Render()
		if !strings.Contains(screen, stop.Claim) {
			t.Errorf("stop %d: %q not on screen:\n%s", i+1, stop.Claim, screen)
		}
		for _, c := range stop.Checks {
			if !strings.Contains(screen, "[✓] "+c.Text) {
				t.Errorf("stop %d: claim %q not ticked:\n%s", i+1, c.Text, screen)
			}
		}
		if strings.Contains(screen, "[✗]") {
			t.Errorf("stop %d: a claim fails:\n%s", i+1, screen)
		}
	}
	press(m, "t")
	if !strings.Contains(m.msg, "the tour is over") {
		t.Errorf("after the last stop t says %q", m.msg)
	}
}

// TestTourClaimFailsWhenInputChanged changes s8 with :set once the load
// has landed: the claim s8 = 41 turns ✗ at once, and so does the next
// stop's s10 = 42, computed from it.
func TestTourClaimFailsWhenInputChanged(t *testing.T) {
	m := tourModel(t, "missing_waitcnt")
	press(m, "t", "t", "t", "t") // stop 4: the wait lands the load
	if s := m.Render(); !strings.Contains(s, "[✓] s8 = 41") {
		t.Fatalf("s8 = 41 is not ticked before the change:\n%s", s)
	}
	typeCommand(m, "set s8 5")
	if s := m.Render(); !strings.Contains(s, "[✗] s8 = 41  — now s8 = 0x5") {
		t.Errorf("after :set s8 5 the claim still holds:\n%s", s)
	}
	press(m, "t")
	if s := m.Render(); !strings.Contains(s, "[✗] s10 = 42  — now s10 = 0x6") || !strings.Contains(s, "[✓] no hazard") {
		t.Errorf("the next stop does not show s10 = 6:\n%s", s)
	}
}

// TestTourOnlyForSamples checks that a kernel that is not a bundled
// sample gets no tour band, and t says why.
func TestTourOnlyForSamples(t *testing.T) {
	m := New(openSample(t), Options{Color: ColorPlain})
	m.Update(winSize(160, 45))
	if m.tour != nil || strings.Contains(m.Render(), "tour:") {
		t.Fatal("the scale kernel has a tour")
	}
	press(m, "t")
	if !strings.Contains(m.msg, "no tour") {
		t.Errorf("t says %q", m.msg)
	}
}

// TestTourResyncsAfterManualSteps steps with s past two stops: t then
// runs to the stop after the PC, not back to the first.
func TestTourResyncsAfterManualSteps(t *testing.T) {
	m := tourModel(t, "missing_waitcnt")
	press(m, "s", "s", "s") // s_load_dwordx4, s_waitcnt, s_load_dword s8
	press(m, "t")
	if m.tour.cur != 2 {
		t.Fatalf("t after three steps reached stop %d, want 3; %s", m.tour.cur+1, m.msg)
	}
	if s := m.Render(); !strings.Contains(s, "[✓] s9 = 1") {
		t.Errorf("stop 3 is not ticked:\n%s", s)
	}
	press(m, "s")
	if s := m.Render(); !strings.Contains(s, "the wave has moved since") {
		t.Errorf("after s the band does not say the claims are judged later:\n%s", s)
	}
}

// TestTourMarksClaimRegisters checks that the registers the shown stop's
// claims name are marked in the SGPR pane (text marker "<", no colour
// needed) and no others are.
func TestTourMarksClaimRegisters(t *testing.T) {
	m := tourModel(t, "missing_waitcnt")
	press(m, "t", "t", "t") // stop 3: hazard on s8, s9 = 1
	m.Render()
	marked := map[string]bool{}
	for _, r := range m.frame.SGPR.Regs {
		if r.Tour {
			marked[r.Name] = true
		}
	}
	if len(marked) != 2 || !marked["s8"] || !marked["s9"] {
		t.Errorf("marked SGPRs %v, want s8 and s9", marked)
	}
	// The mark takes the marker column when the register is neither
	// changed (*) nor pending (~).
	v := &SGPRView{Regs: []RegCell{{Name: "s8", Tour: true}, {Name: "s9", Tour: true, Changed: true}, {Name: "s10"}}, Cursor: -1}
	got := strings.Join(renderSGPRs(v, m.common.Styles, 20), "\n")
	if want := "s8  0x00000000<\ns9  0x00000000*\ns10 0x00000000 "; got != want {
		t.Errorf("SGPR pane:\n%s\nwant:\n%s", got, want)
	}
}

// TestTourEverySample presses t through every bundled sample's tour (the
// stops about wave 0 of work-group 0), each build of it (smem_gfx8_gfx9
// (gfx803) too): each stop is reached and no claim fails on the live
// debugger.
func TestTourEverySample(t *testing.T) {
	for _, s := range samples.Items() {
		m := tourModel(t, s.ID())
		if m.tour.name != s.ID() {
			t.Errorf("%s opens the tour of %s", s.ID(), m.tour.name)
		}
		for i, stop := range m.tour.stops {
			press(m, "t")
			if m.tour.cur != i {
				t.Errorf("%s: stop %d (%s) not reached: %s", s.ID(), i+1, stop.Claim, m.msg)
				break
			}
			for _, l := range strings.Split(m.Render(), "\n") {
				if strings.Contains(l, "[✗]") {
					t.Errorf("%s, stop %d: %s", s.ID(), i+1, strings.Trim(l, "│ "))
				}
			}
		}
	}
}

// TestTourSmallTerminal checks that below tourMinHeight rows the band
// gives the panes their room and t still reports each stop, ticks
// included, on the status line.
func TestTourSmallTerminal(t *testing.T) {
	m := New(openBundled(t, "missing_waitcnt"), Options{Color: ColorPlain})
	m.Update(winSize(120, tourMinHeight-1))
	if strings.Contains(m.Render(), "tour:") {
		t.Fatalf("the band is drawn at %d rows", tourMinHeight-1)
	}
	press(m, "t", "t", "t")
	if want := "tour 3/6 ✓✓ 3: the early read is a hazard"; !strings.Contains(m.Render(), want) {
		t.Errorf("no %q on the status line:\n%s", want, m.Render())
	}
}

// TestTourFormat checks that the tour shows registers in the formats its
// claims use (tour.yaml's format): vector_add opens with decimal VGPRs,
// shows SGPRs in decimal at the stop that claims n = 100, and floats once
// the loads of a[i] and b[i] have landed.
func TestTourFormat(t *testing.T) {
	m := tourModel(t, "vector_add")
	sgpr, vgpr := m.panes[paneSGPR].(*sgprPane), m.panes[paneVGPR].(*vgprPane)
	if sgpr.format != FmtHex || vgpr.format != FmtUnsigned {
		t.Fatalf("on opening: sgpr %s, vgpr %s; want hex, unsigned", sgpr.format, vgpr.format)
	}
	press(m, "t", "t")
	if sgpr.format != FmtUnsigned {
		t.Errorf("at %q the SGPRs are %s, want unsigned", m.tour.shownStop().Claim, sgpr.format)
	}
	for m.tour.cur+1 < len(m.tour.stops) && !strings.Contains(m.tour.shownStop().Claim, "vmcnt(0)") {
		press(m, "t")
	}
	if vgpr.format != FmtFloat || sgpr.format != FmtHex {
		t.Errorf("at %q: sgpr %s, vgpr %s; want hex, float", m.tour.shownStop().Claim, sgpr.format, vgpr.format)
	}
	if !strings.Contains(m.Render(), "3 vgpr float") {
		t.Errorf("the VGPR pane does not say float:\n%s", m.Render())
	}
	press(m, "t")
	if vgpr.format != FmtUnsigned {
		t.Errorf("after the loads' stop the VGPRs are %s, want the tour's unsigned", vgpr.format)
	}
}
