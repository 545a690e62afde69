package main

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/wavedbg/wavedbg/samples"
	"github.com/wavedbg/wavedbg/tui"
	"github.com/wavedbg/wavedbg/tui/sample"
)

// TestPickerListsEverySample checks that the picker offers every sample
// --sample opens, scale included, and that each one is drawn on screen
// as the cursor moves down the list.
func TestPickerListsEverySample(t *testing.T) {
	var want []string
	for _, it := range samples.Items() {
		want = append(want, it.Title()) // variants too: "NAME (TARGET)"
	}
	want = append(want, sample.Name)
	var got []string
	for _, it := range pickerItems() {
		got = append(got, it.Title())
		if _, _, err := bundled(it.Title()); err != nil {
			t.Errorf("the picker lists %s, which --sample cannot open: %v", it.Title(), err)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("picker items %v, want %v", got, want)
	}
	a := tui.NewApp(pickerItems(), nil, tui.Options{Color: tui.ColorPlain})
	seen := map[string]bool{}
	for range want {
		for _, l := range strings.Split(a.Render(), "\n") {
			seen[strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "▌"))] = true
		}
		a.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	}
	for _, name := range want {
		if !seen[name] {
			t.Errorf("%s never appears in the picker", name)
		}
	}
}
