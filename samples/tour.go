package samples

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

//go:generate go test -run TestREADMEMatchesTour -update-readme

// Tour is a sample's walkthrough as data (NAME/tour.yaml): the numbered
// steps README.md shows, and the stops where claims about emu's state are
// checked (by the walkthrough tests and live in the debugger's tour pane).
type Tour struct {
	File   string // "NAME/tour.yaml", for messages
	Topic  string // the picker's group, one of Topics
	Format Format // how the debugger shows registers while the tour runs
	Needs  []string
	Steps  []Step
	// Unchecked names the steps no stop checks, with the reason.
	Unchecked map[int]string
	Stops     []Stop
}

// Step is one numbered step of the walkthrough, as README.md shows it.
type Step struct {
	Before string // prose between the previous step and this one, if any
	Text   string // the step's text, without its number and indentation
}

// Stop is a point of a run where claims hold: right after the wave
// executes a source instruction (At, "text" or "text#n" for the nth
// occurrence in the source) for the Nth time (0 is the first). A stop
// with a Target is about that build of the sample only.
type Stop struct {
	Line   int
	Target string // "" (every target) or a processor, e.g. "gfx803"
	Format Format // overrides the tour's Format at this stop
	Claim  string // the walkthrough's words, starting with step numbers ("1-4: ...")
	Steps  []int  // the steps the stop checks, from Claim
	At     string
	Nth    int
	Group  uint32 // the workgroup and wave the stop is about
	Wave   int
	Checks []Claim
}

// Topics are the picker's groups of samples, in teaching order.
var Topics = []string{"scalar memory", "scalar cache", "vector memory", "LDS", "waves and control", "whole programs"}

// Format names the number format the debugger's register panes use for
// the tour's claims ("hex", "signed", "unsigned" or "float"; "" keeps
// what is shown). In tour.yaml: format: {vgpr: float}.
type Format struct {
	SGPR string `yaml:"sgpr"`
	VGPR string `yaml:"vgpr"`
}

// Formats are the values a Format field may take.
var Formats = []string{"hex", "signed", "unsigned", "float"}

func (f Format) check() error {
	for _, v := range []string{f.SGPR, f.VGPR} {
		if v != "" && !slices.Contains(Formats, v) {
			return fmt.Errorf("format %q is not one of %s", v, strings.Join(Formats, ", "))
		}
	}
	return nil
}

// FormatAt is the format at stop st: the stop's fields over the tour's.
func (t *Tour) FormatAt(st Stop) Format {
	f := t.Format
	if st.Format.SGPR != "" {
		f.SGPR = st.Format.SGPR
	}
	if st.Format.VGPR != "" {
		f.VGPR = st.Format.VGPR
	}
	return f
}

type rawTour struct {
	Topic     string         `yaml:"topic"`
	Format    Format         `yaml:"format"`
	Needs     []string       `yaml:"needs"`
	Steps     []rawStep      `yaml:"steps"`
	Unchecked map[int]string `yaml:"unchecked"`
	Stops     []yaml.Node    `yaml:"stops"`
}

type rawStep struct {
	Before string `yaml:"before"`
	Text   string `yaml:"text"`
}

type rawStop struct {
	Claim  string      `yaml:"claim"`
	At     string      `yaml:"at"`
	Nth    int         `yaml:"nth"`
	Group  uint32      `yaml:"group"`
	Wave   int         `yaml:"wave"`
	Target string      `yaml:"target"`
	Format Format      `yaml:"format"`
	Check  []yaml.Node `yaml:"check"`
}

var knownNeeds = map[string]bool{"valu": true, "smem": true, "vmem": true, "ds": true, "waves": true}

// stepsRE finds the step numbers a claim starts with: "3: ...", "1-4: ...",
// "5 and ...", "5: ...; 7: ...".
var stepsRE = regexp.MustCompile(`(?:^|; )(\d+)(?:-(\d+))?(?:[:,]| and)`)

// ParseTour parses a tour file; name is the file's name for messages and
// src the sample's instruction lines (SourceInstructions) that stops name.
// It keeps the stops about DefaultTarget.
func ParseTour(name string, data []byte, src []string) (*Tour, error) {
	return parseTour(name, data, src, DefaultTarget, []string{DefaultTarget})
}

// parseTour parses a tour file for one target of a sample built for
// targets: the stops about another target are dropped.
func parseTour(name string, data []byte, src []string, target string, targets []string) (*Tour, error) {
	var raw rawTour
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	t := &Tour{File: name, Topic: raw.Topic, Format: raw.Format, Needs: raw.Needs, Unchecked: raw.Unchecked}
	if !slices.Contains(Topics, raw.Topic) {
		return nil, fmt.Errorf("%s: topic %q is not one of %s", name, raw.Topic, strings.Join(Topics, ", "))
	}
	if err := raw.Format.check(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	for _, n := range raw.Needs {
		if !knownNeeds[n] {
			return nil, fmt.Errorf("%s: unknown need %q (have valu, smem, vmem, ds, waves)", name, n)
		}
	}
	for i, s := range raw.Steps {
		if strings.TrimSpace(s.Text) == "" {
			return nil, fmt.Errorf("%s: step %d has no text", name, i+1)
		}
		t.Steps = append(t.Steps, Step{Before: strings.Trim(s.Before, "\n"), Text: strings.TrimRight(s.Text, "\n")})
	}
	for n, why := range raw.Unchecked {
		if n < 1 || n > len(t.Steps) || why == "" {
			return nil, fmt.Errorf("%s: unchecked step %d: no such step, or no reason", name, n)
		}
	}
	seen := map[string]int{} // stop point → its line
	for _, node := range raw.Stops {
		var r rawStop
		if err := knownKeys(node, stopKeys); err != nil {
			return nil, fmt.Errorf("%s:%v", name, err)
		}
		if err := node.Decode(&r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, node.Line, err)
		}
		st := Stop{Line: node.Line, Target: r.Target, Format: r.Format, Claim: r.Claim, At: r.At, Nth: r.Nth, Group: r.Group, Wave: r.Wave}
		if r.Claim == "" || r.At == "" {
			return nil, fmt.Errorf("%s:%d: a stop needs a claim and at", name, node.Line)
		}
		if err := r.Format.check(); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, node.Line, err)
		}
		if r.Target != "" && !slices.Contains(targets, r.Target) {
			return nil, fmt.Errorf("%s:%d: target %q: the sample is built for %s", name, node.Line, r.Target, strings.Join(targets, ", "))
		}
		if r.Target != "" && r.Target != target {
			continue // about another build of the sample
		}
		where := normalize(r.At)
		if src != nil {
			i, err := Locate(src, r.At)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: at: %v", name, node.Line, err)
			}
			where = strconv.Itoa(i)
		}
		// The debugger's tour stops once per point, so two stops at one
		// point would leave the second unseen: they must be one stop.
		point := fmt.Sprintf("%s/%d/%d/%d", where, r.Nth, r.Group, r.Wave)
		if first, ok := seen[point]; ok {
			return nil, fmt.Errorf("%s:%d: a second stop at %q (nth %d): merge its checks into the stop at line %d", name, node.Line, r.At, r.Nth, first)
		}
		seen[point] = node.Line
		for _, m := range stepsRE.FindAllStringSubmatch(r.Claim, -1) {
			lo, hi := atoi(m[1]), atoi(m[1])
			if m[2] != "" {
				hi = atoi(m[2])
			}
			for n := lo; n <= hi; n++ {
				if n < 1 || n > len(t.Steps) {
					return nil, fmt.Errorf("%s:%d: claim %q names step %d; the walkthrough has %d", name, node.Line, r.Claim, n, len(t.Steps))
				}
				st.Steps = append(st.Steps, n)
			}
		}
		if len(st.Steps) == 0 {
			return nil, fmt.Errorf("%s:%d: claim %q does not start with step numbers", name, node.Line, r.Claim)
		}
		if len(r.Check) == 0 {
			return nil, fmt.Errorf("%s:%d: %q checks nothing", name, node.Line, r.Claim)
		}
		for _, c := range r.Check {
			var text string
			if err := c.Decode(&text); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, c.Line, err)
			}
			k, err := parseClaim(text)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, c.Line, err)
			}
			st.Checks = append(st.Checks, Claim{Text: text, Line: c.Line, k: k})
		}
		t.Stops = append(t.Stops, st)
	}
	return t, nil
}

var stopKeys = []string{"claim", "at", "nth", "group", "wave", "target", "format", "check"}

// knownKeys refuses a mapping key not in keys (yaml.Node.Decode does not
// check fields).
func knownKeys(n yaml.Node, keys []string) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("%d: a stop is a mapping", n.Line)
	}
	for i := 0; i < len(n.Content); i += 2 {
		if k := n.Content[i]; !slices.Contains(keys, k.Value) {
			return fmt.Errorf("%d: unknown field %q in a stop (have %s)", k.Line, k.Value, strings.Join(keys, ", "))
		}
	}
	return nil
}

// Tour returns the sample's tour, or nil and no error if it has none.
func (s Sample) Tour() (*Tour, error) {
	name := path.Join(s.Name, "tour.yaml")
	data, err := files.ReadFile(name)
	if err != nil {
		return nil, nil
	}
	targets := s.targets
	if targets == nil {
		targets = []string{s.Target}
	}
	return parseTour("samples/"+name, data, SourceInstructions(s), s.Target, targets)
}

// stepRE starts a numbered step of a README.
var stepRE = regexp.MustCompile(`^(\d+)\. `)

// SplitWalkthrough splits a README at its numbered steps: the text before
// the first step, the steps, and the text after the last one. A step runs
// on over lines indented by its number's width; prose between steps goes
// to the next step's Before.
func SplitWalkthrough(readme string) (head string, steps []Step, tail string) {
	lines := strings.SplitAfter(readme, "\n")
	i := 0
	for i < len(lines) && !stepRE.MatchString(lines[i]) {
		i++
	}
	head = strings.Join(lines[:i], "")
	var before []string
	for i < len(lines) {
		m := stepRE.FindStringSubmatch(lines[i])
		if m == nil {
			before = append(before, lines[i])
			i++
			continue
		}
		if n, _ := strconv.Atoi(m[1]); n != len(steps)+1 {
			break
		}
		ind := strings.Repeat(" ", len(m[0]))
		text := strings.TrimPrefix(lines[i], m[0])
		for i++; i < len(lines) && strings.HasPrefix(lines[i], ind); i++ {
			text += strings.TrimPrefix(lines[i], ind)
		}
		b := strings.Join(before, "")
		steps = append(steps, Step{Before: strings.Trim(b, "\n"), Text: strings.TrimRight(text, "\n")})
		before = nil
	}
	tail = strings.Join(before, "") + strings.Join(lines[i:], "")
	return head, steps, tail
}

// RenderSteps renders steps as README.md shows them; a step's Before is
// set off by blank lines.
func RenderSteps(steps []Step) string {
	var b strings.Builder
	for i, s := range steps {
		if s.Before != "" {
			b.WriteString("\n" + s.Before + "\n\n")
		}
		num := strconv.Itoa(i+1) + ". "
		ind := strings.Repeat(" ", len(num))
		for j, l := range strings.Split(s.Text, "\n") {
			if j == 0 {
				b.WriteString(num + l + "\n")
			} else {
				b.WriteString(ind + l + "\n")
			}
		}
	}
	return b.String()
}

// RenderREADME returns readme with its numbered steps replaced by the tour's.
func (t *Tour) RenderREADME(readme string) string {
	head, _, tail := SplitWalkthrough(readme)
	return head + RenderSteps(t.Steps) + tail
}

// SourceInstructions lists the instruction lines of a sample's kernel, in
// order: for assembly samples from Source, for OpenCL ones from the
// assembly clang generated (NAME.cl.s). Labels, directives, comments and
// blank lines are dropped; each remaining line is one instruction (a
// ".long" line inside the kernel spells one instruction as its words).
func SourceInstructions(s Sample) []string {
	var out []string
	in := false
	for line := range strings.Lines(s.Assembly) {
		if i := strings.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		line = normalize(line)
		switch {
		case line == s.Kernel+":":
			in = true
		case !in || line == "":
		case strings.HasSuffix(line, ":") && strings.Contains(line, "end"),
			strings.HasPrefix(line, ".section"), strings.HasPrefix(line, ".rodata"),
			strings.HasPrefix(line, ".size"):
			in = false // the end of the kernel's code
		case strings.HasPrefix(line, ".long "):
			out = append(out, line) // an instruction spelled as its words
		case strings.HasPrefix(line, "."), strings.HasSuffix(line, ":"):
			// directives and labels
		default:
			out = append(out, line)
		}
	}
	return out
}

// normalize folds a source line or stop to the form SourceInstructions uses.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// Locate finds "text" or "text#n" (the nth occurrence) among the source
// instructions and returns its index.
func Locate(src []string, at string) (int, error) {
	text, nth := at, 1
	if i := strings.LastIndexByte(at, '#'); i >= 0 {
		n, err := strconv.Atoi(at[i+1:])
		if err != nil || n < 1 {
			return 0, fmt.Errorf("bad occurrence in %q", at)
		}
		text, nth = at[:i], n
	}
	text = normalize(text)
	seen := 0
	for i, s := range src {
		if s == text {
			seen++
			if seen == nth {
				return i, nil
			}
		}
	}
	if seen > 0 && !strings.Contains(at, "#") {
		return 0, fmt.Errorf("%q is ambiguous", at)
	}
	return 0, fmt.Errorf("no instruction %q (occurrence %d) in the source", text, nth)
}
