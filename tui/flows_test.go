package tui

import (
	"bytes"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/wavedbg/wavedbg/samples"
)

// The flows drive the real model over the bundled sample through teatest
// and compare the final screen, drawn without colour, with a golden file
// (go test ./tui -run TestFlow -update regenerates them).

func keyMsg(s string) tea.KeyPressMsg {
	switch s {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// flow runs keys against a fresh model of size w×h and returns the final
// plain frame.
func flow(t *testing.T, w, h int, steps func(tm *teatest.TestModel)) string {
	t.Helper()
	m := New(openSample(t), Options{Color: ColorPlain})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	steps(tm)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	return fm.Render()
}

func send(tm *teatest.TestModel, keys ...string) {
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
}

// waitFor waits until the program's output contains s.
func waitFor(t *testing.T, tm *teatest.TestModel, s string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func TestFlowOpen(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 36, func(*teatest.TestModel) {}))
}

func TestFlowStep(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 36, func(tm *teatest.TestModel) { send(tm, "s", "s", "s") }))
}

func TestFlowStepBack(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 36, func(tm *teatest.TestModel) { send(tm, "s", "s", "s", "b", "b") }))
}

func TestFlowBreakpoint(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 36, func(tm *teatest.TestModel) {
		// Cursor down to the second s_load, set a breakpoint and continue.
		send(tm, "j", "space", "c")
		waitFor(t, tm, "after 1 step")
	}))
}

func TestFlowCommandBreakpoint(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 36, func(tm *teatest.TestModel) {
		send(tm, ":")
		tm.Type("break 0x1508 if s1 == 1")
		send(tm, "enter", "c")
		waitFor(t, tm, "after 1 step")
	}))
}

func TestFlowWaveSwitch(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 36, func(tm *teatest.TestModel) { send(tm, "s", "]", "8") }))
}

func TestFlowHelp(t *testing.T) {
	golden.RequireEqual(t, flow(t, 120, 50, func(tm *teatest.TestModel) { send(tm, "?") }))
}

func TestFlowResize80x24(t *testing.T) {
	golden.RequireEqual(t, flow(t, 200, 60, func(tm *teatest.TestModel) {
		send(tm, "s")
		tm.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	}))
}

func TestFlowResize20x10(t *testing.T) {
	golden.RequireEqual(t, flow(t, 80, 24, func(tm *teatest.TestModel) {
		send(tm, "s", "tab")
		tm.Send(tea.WindowSizeMsg{Width: 20, Height: 10})
	}))
}

func TestFlowMaximise(t *testing.T) {
	golden.RequireEqual(t, flow(t, 100, 30, func(tm *teatest.TestModel) { send(tm, "s", "3", "z", "l", "l") }))
}

// flowApp is flow over the App: the sample picker first.
func flowApp(t *testing.T, w, h int, steps func(tm *teatest.TestModel)) string {
	t.Helper()
	open := func(name string) (Debuggee, error) { return openBundled(t, name), nil }
	a := NewApp(samples.Items(), open, Options{Color: ColorPlain})
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(w, h))
	steps(tm)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*App).Render()
}

func TestFlowPicker(t *testing.T) {
	golden.RequireEqual(t, flowApp(t, 80, 24, func(tm *teatest.TestModel) { send(tm, "j", "j") }))
}

func TestFlowPickerFilter(t *testing.T) {
	golden.RequireEqual(t, flowApp(t, 80, 24, func(tm *teatest.TestModel) {
		send(tm, "/")
		tm.Type("lds")
	}))
}

// TestFlowVectorLoad opens vector_add from the picker, runs to its first
// global load and steps it: the address decoder lists every lane's
// address and the counters pane the load in flight.
func TestFlowVectorLoad(t *testing.T) {
	golden.RequireEqual(t, flowApp(t, 120, 40, func(tm *teatest.TestModel) {
		send(tm, "/")
		tm.Type("vector_add")
		send(tm, "enter", "enter")
		waitFor(t, tm, "vector_add:")
		send(tm, ":")
		tm.Type("until 0x187c")
		send(tm, "enter")
		waitFor(t, tm, "reached 0x187c")
		send(tm, "s", "6")
	}))
}

// TestFlowBackToPicker checks that o in the debugger returns to the picker.
func TestFlowBackToPicker(t *testing.T) {
	golden.RequireEqual(t, flowApp(t, 80, 24, func(tm *teatest.TestModel) {
		send(tm, "j", "enter")
		waitFor(t, tm, "lgkm_count:")
		send(tm, "o")
		waitFor(t, tm, "pick a sample")
	}))
}
