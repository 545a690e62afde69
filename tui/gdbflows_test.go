package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// typeGDBLine types one ':' line and presses Enter.
func typeGDBLine(tm *teatest.TestModel, line string) {
	send(tm, ":")
	tm.Type(line)
	send(tm, "enter")
}

// TestFlowGDBDisplay: gdb's break, display, continue, and Enter repeating
// the step, as typed.
func TestFlowGDBDisplay(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 36, func(tm *teatest.TestModel) {
		typeGDBLine(tm, "b 0x1508")
		typeGDBLine(tm, "display/x s1")
		typeGDBLine(tm, "c")
		waitFor(t, tm, "after 1 step")
		typeGDBLine(tm, "si")
		typeGDBLine(tm, "")
		waitFor(t, tm, "step 3")
	}))
}

// TestFlowGDBExamine: x/8x's output box over the panes.
func TestFlowGDBExamine(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 36, func(tm *teatest.TestModel) {
		typeGDBLine(tm, "x/8x kernarg")
		waitFor(t, tm, "any key closes")
	}))
}
