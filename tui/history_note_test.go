package tui

import (
	"strings"
	"testing"
)

// restartedFake is a debuggee whose recording restarted to stay within its
// history budget.
type restartedFake struct{ *fakeDebuggee }

func (restartedFake) HistoryRestarts() int { return 1 }

// TestHistoryStartSaysWhyAfterRestart: reaching the start of history says
// the recording restarted when it did (the start is then not the kernel's
// entry), and nothing more otherwise.
func TestHistoryStartSaysWhyAfterRestart(t *testing.T) {
	for _, c := range []struct {
		d    Debuggee
		want string
	}{
		{newFake(), "at the start of history"},
		{restartedFake{newFake()}, "at the start of history (it restarted here to stay within the history budget"},
	} {
		got := New(c.d, Options{Color: ColorPlain}).historyStart()
		if !strings.HasPrefix(got, c.want) || c.want == "at the start of history" && got != c.want {
			t.Errorf("%T: %q, want %q", c.d, got, c.want)
		}
	}
}
