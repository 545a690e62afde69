package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every key binding of the debugger; the help bar and the help
// overlay are generated from it, and so is the README's key table.
type KeyMap struct {
	Step, StepBack, StepOver                key.Binding
	Continue, ReverseContinue, RunToCursor  key.Binding
	Break, Watch                            key.Binding
	Up, Down, Left, Right, PageUp, PageDown key.Binding
	Top, Bottom                             key.Binding
	NextPane, PrevPane, Maximise, FocusPane key.Binding
	Format, Encoding, AllLanes              key.Binding
	NextWave, PrevWave                      key.Binding
	Command, Help, Interrupt, Quit          key.Binding
	Samples, Tour                           key.Binding
}

// DefaultKeyMap returns the debugger's key bindings.
func DefaultKeyMap() *KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return &KeyMap{
		Step:            b([]string{"s", "f7"}, "s", "step"),
		StepBack:        b([]string{"b", "shift+f7"}, "b", "step back"),
		StepOver:        b([]string{"n", "f8"}, "n", "step 10"),
		Continue:        b([]string{"c", "f5"}, "c", "continue"),
		ReverseContinue: b([]string{"C", "shift+f5"}, "C", "reverse-continue"),
		RunToCursor:     b([]string{"r", "f4"}, "r", "run to cursor"),
		Break:           b([]string{"space", "f9"}, "space", "breakpoint at cursor"),
		Watch:           b([]string{"w"}, "w", "watch selection"),
		Up:              b([]string{"up", "k"}, "↑/k", "up"),
		Down:            b([]string{"down", "j"}, "↓/j", "down"),
		Left:            b([]string{"left", "h"}, "←/h", "lane/column left"),
		Right:           b([]string{"right", "l"}, "→/l", "lane/column right"),
		PageUp:          b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:        b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:             b([]string{"home", "g"}, "g", "top / PC"),
		Bottom:          b([]string{"end", "G"}, "G", "bottom"),
		NextPane:        b([]string{"tab"}, "tab", "next pane"),
		PrevPane:        b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		Maximise:        b([]string{"z"}, "z", "maximise pane"),
		FocusPane:       b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "focus pane"),
		Format:          b([]string{"f"}, "f", "hex/signed/unsigned/float"),
		Encoding:        b([]string{"e"}, "e", "show encodings"),
		AllLanes:        b([]string{"a"}, "a", "one register, all lanes"),
		NextWave:        b([]string{"]"}, "]", "next wave"),
		PrevWave:        b([]string{"["}, "[", "previous wave"),
		Command:         b([]string{":"}, ":", "command line"),
		Help:            b([]string{"?"}, "?", "help"),
		Interrupt:       b([]string{"ctrl+c"}, "ctrl+c", "stop a run or an opening"),
		Quit:            b([]string{"q", "ctrl+q"}, "q", "quit"),
		Samples:         b([]string{"o"}, "o", "sample picker"),
		Tour:            b([]string{"t"}, "t", "tour: run to the next walkthrough step"),
	}
}

// ShortHelp is the one-line help bar.
func (k *KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Step, k.StepBack, k.Continue, k.Break, k.NextPane, k.Command, k.Help, k.Quit}
}

// FullHelp is the help overlay, one column per group.
func (k *KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Step, k.StepBack, k.StepOver, k.Continue, k.ReverseContinue, k.RunToCursor, k.Interrupt, k.Tour},
		{k.Break, k.Watch, k.Format, k.Encoding, k.AllLanes, k.NextWave, k.PrevWave},
		{k.Up, k.Down, k.Left, k.Right, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.NextPane, k.PrevPane, k.FocusPane, k.Maximise, k.Command, k.Help, k.Samples, k.Quit},
	}
}
