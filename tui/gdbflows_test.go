package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// typeCommand types one ':' line and presses Enter.
func typeCommand(tm *teatest.TestModel, line string) {
	send(tm, ":")
	tm.Type(line)
	send(tm, "enter")
}

// TestFlowGDBDisplay: gdb's break, display, continue, and Enter repeating
// the step, as typed.
func TestFlowGDBDisplay(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 36, func(tm *teatest.TestModel) {
		typeCommand(tm, "b 0x1508")
		typeCommand(tm, "display/x s1")
		typeCommand(tm, "c")
		waitFor(t, tm, "after 1 step")
		typeCommand(tm, "si")
		typeCommand(tm, "")
		waitFor(t, tm, "step 3")
	}))
}

// TestFlowGDBExamine: x/8x's output box over the panes.
func TestFlowGDBExamine(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 36, func(tm *teatest.TestModel) {
		typeCommand(tm, "x/8x kernarg")
		waitFor(t, tm, "any key closes")
	}))
}
