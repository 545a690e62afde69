package tui

import tea "charm.land/bubbletea/v2"

func winSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
