package tui

import (
	"image/color"
	"os"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
)

// ColorMode chooses how much styling the debugger draws.
type ColorMode uint8

const (
	ColorFull  ColorMode = iota // colours and attributes
	ColorMono                   // attributes only (bold, reverse, faint): NO_COLOR
	ColorPlain                  // nothing at all: golden frames and pure-helper tests
)

// ColorModeFromEnv returns ColorMono when NO_COLOR is set to anything
// non-empty (https://no-color.org) and ColorFull otherwise.
func ColorModeFromEnv() ColorMode {
	if os.Getenv("NO_COLOR") != "" {
		return ColorMono
	}
	return ColorFull
}

// Styles holds every Lip Gloss style the debugger draws with; views never
// build styles inline.
type Styles struct {
	Mode ColorMode

	Border, BorderFocused lipgloss.Style // pane frames
	Title, TitleFocused   lipgloss.Style // pane titles in the frame

	Status, StatusKey, Error, Explain, Running lipgloss.Style

	Addr, Encoding, Label, PC, Cursor, Break, BreakOff lipgloss.Style

	RegName, Header, Changed, Pending, Dim, LaneCursor, Selected lipgloss.Style
	Tour                                                         lipgloss.Style // a register the tour's claims name

	BitOn, BitOff lipgloss.Style

	Hit, Miss, Evict lipgloss.Style
	// Scalar-cache invalidations, write-backs, dirty and stale dwords; a
	// hazard marked on the disassembly.
	Inval, WriteBack, Dirty, Stale, Hazard lipgloss.Style
	InRange, OutRange                      lipgloss.Style
	Stall                                  lipgloss.Style

	Help  help.Styles
	Input textinput.Styles // the ':' line
	// The sample picker: its title, the selected entry, descriptions.
	PickerTitle, PickerSelected, PickerDesc lipgloss.Style

	tokens map[chroma.TokenType]lipgloss.Style
	hl     map[string]string // highlighted lines, by source text
	memos  map[string]string // rendered recurring strings (see memo)
}

// NewStyles builds the style set for mode.
func NewStyles(mode ColorMode) *Styles {
	s := &Styles{Mode: mode, tokens: map[chroma.TokenType]lipgloss.Style{}}
	plain := lipgloss.NewStyle()
	if mode == ColorPlain {
		// Every style stays the zero style, so rendering adds no escapes.
		s.Border = plain.Border(lipgloss.NormalBorder())
		s.BorderFocused = plain.Border(lipgloss.ThickBorder())
		s.Help = help.Styles{}
		s.Input.Cursor.Blink = false
		return s
	}
	c := func(hex string) color.Color {
		if mode == ColorMono {
			return nil
		}
		return lipgloss.Color(hex)
	}
	fg := func(hex string) lipgloss.Style {
		if mode == ColorMono {
			return plain
		}
		return plain.Foreground(c(hex))
	}
	const (
		blue   = "#61afef"
		cyan   = "#56b6c2"
		green  = "#98c379"
		yellow = "#e5c07b"
		orange = "#d19a66"
		red    = "#e06c75"
		purple = "#c678dd"
		grey   = "#7f848e"
		dark   = "#3e4451"
	)
	s.Border = fg(grey).Border(lipgloss.RoundedBorder()).BorderForeground(c(dark))
	s.BorderFocused = plain.Border(lipgloss.ThickBorder()).BorderForeground(c(blue))
	s.Title = fg(grey)
	s.TitleFocused = fg(blue).Bold(true)
	s.Status = plain.Reverse(true)
	s.StatusKey = plain.Reverse(true).Bold(true)
	s.Error = fg(red).Bold(true)
	s.Explain = fg(cyan)
	s.Running = fg(yellow).Bold(true)
	s.Addr = fg(grey)
	s.Encoding = fg(grey).Faint(true)
	s.Label = fg(purple).Bold(true)
	s.PC = fg(green).Bold(true)
	s.Cursor = plain.Reverse(true)
	s.Break = fg(red).Bold(true)
	s.BreakOff = fg(grey)
	s.RegName = fg(blue)
	s.Header = fg(grey).Bold(true)
	s.Changed = fg(yellow).Bold(true)
	s.Pending = fg(orange).Italic(true).Underline(true)
	s.Dim = fg(grey).Faint(true)
	s.LaneCursor = plain.Reverse(true)
	s.Selected = plain.Reverse(true)
	s.Tour = fg(cyan).Bold(true).Underline(true)
	s.BitOn = fg(green).Bold(true)
	s.BitOff = fg(grey).Faint(true)
	s.Hit = fg(green).Bold(true)
	s.Miss = fg(red).Bold(true)
	s.Evict = fg(orange).Bold(true).Strikethrough(true)
	s.Inval = fg(purple).Bold(true)
	s.WriteBack = fg(cyan).Bold(true)
	s.Dirty = fg(yellow).Bold(true)
	s.Stale = fg(red).Bold(true).Italic(true)
	s.Hazard = fg(red).Bold(true)
	s.InRange = fg(green)
	s.OutRange = fg(red).Bold(true)
	s.Stall = fg(red).Bold(true)
	s.Help = help.Styles{
		ShortKey:       fg(blue),
		ShortDesc:      fg(grey),
		ShortSeparator: fg(dark),
		FullKey:        fg(blue),
		FullDesc:       fg(grey),
		FullSeparator:  fg(dark),
		Ellipsis:       fg(dark),
	}
	s.Input = textinput.DefaultDarkStyles()
	s.Input.Focused.Prompt = fg(blue).Bold(true)
	s.Input.Focused.Suggestion = fg(grey).Faint(true)
	s.Input.Cursor.Blink = false
	s.PickerTitle = plain.Reverse(true).Bold(true)
	s.PickerSelected = fg(purple).Bold(true)
	s.PickerDesc = fg(grey)
	if mode == ColorMono {
		s.Input = textinput.Styles{}
		s.Input.Focused.Suggestion = plain.Faint(true)
		s.PickerSelected = plain.Bold(true)
		s.PickerDesc = plain
	}
	s.tokens = map[chroma.TokenType]lipgloss.Style{
		TokScalar:                   fg(blue),
		TokVector:                   fg(green),
		TokMemory:                   fg(orange).Bold(true),
		TokBranch:                   fg(purple).Bold(true),
		TokReg:                      fg(yellow),
		TokSpec:                     fg(red),
		TokMod:                      fg(cyan),
		TokLabel:                    fg(purple),
		chroma.LiteralNumberHex:     fg(orange),
		chroma.LiteralNumberFloat:   fg(orange),
		chroma.LiteralNumberInteger: fg(orange),
		chroma.CommentSingle:        fg(grey).Italic(true),
		chroma.NameBuiltinPseudo:    fg(purple),
		chroma.LiteralString:        fg(green),
	}
	return s
}

// Token returns the style for a Chroma token type, falling back to its
// category (a hex number to numbers, and so on).
func (s *Styles) Token(t chroma.TokenType) (lipgloss.Style, bool) {
	if st, ok := s.tokens[t]; ok {
		return st, true
	}
	if st, ok := s.tokens[t.SubCategory()]; ok {
		return st, true
	}
	st, ok := s.tokens[t.Category()]
	return st, ok
}
