package tui

import (
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/samples"
)

// TestPickerResetsFilter filters the picker, opens the one match, and comes
// back with o: the filter is gone, every sample is listed again and the
// cursor is on the sample that was open.
func TestPickerResetsFilter(t *testing.T) {
	open := func(name string) (Debuggee, error) { return openBundled(t, name), nil }
	a := NewApp(samples.Items(), open, Options{Color: ColorPlain})
	a.Update(winSize(100, 60))
	for _, k := range []string{"/", "d", "i", "r", "e", "c", "t", "enter"} {
		a.Update(keyMsg(k))
	}
	if n := len(a.visible()); n != 1 {
		t.Fatalf("the filter direct keeps %d samples, want 1", n)
	}
	a.Update(keyMsg("enter"))
	if a.Debugger() == nil {
		t.Fatal("enter did not open lds_direct")
	}
	_, cmd := a.Update(keyMsg("o"))
	a.Update(cmd())
	if a.Debugger() != nil {
		t.Fatal("o did not return to the picker")
	}
	screen := a.Render()
	if a.filter.Value() != "" || strings.Contains(screen, "filter:") {
		t.Errorf("the filter %q survived o:\n%s", a.filter.Value(), screen)
	}
	if n := len(a.visible()); n != len(samples.Items()) {
		t.Errorf("the picker lists %d samples after o, want %d", n, len(samples.Items()))
	}
	if got := a.visible()[a.cursor].Title(); got != "lds_direct" {
		t.Errorf("the cursor is on %s, want lds_direct", got)
	}
}

// TestTourShownFromPicker opens a sample from the picker: its tour band is
// there at once, as with --sample.
func TestTourShownFromPicker(t *testing.T) {
	open := func(name string) (Debuggee, error) { return openBundled(t, name), nil }
	a := NewApp(samples.Items(), open, Options{Color: ColorPlain})
	a.Update(winSize(160, 45))
	for _, k := range []string{"j", "j", "enter"} {
		a.Update(keyMsg(k))
	}
	if s := a.Render(); !strings.Contains(s, "tour: missing_waitcnt  press t to run to the first step") {
		t.Errorf("no tour band after opening missing_waitcnt from the picker:\n%s", s)
	}
}
