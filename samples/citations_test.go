package samples

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Citations a student can follow: the walkthroughs, docs and comments cite
// public documents by title and section (REFERENCES.md lists them), and no
// file in the repository points at a file outside it.

// privateNames are the names of documents outside the repository that
// older text cited. Each is split in two so that this file, which the test
// scans too, does not contain it.
var privateNames = []string{
	"../" + "shared",
	"shared" + "/reference",
	"/work/" + "shared",
	"gcn-smem" + ".md",
	"smem-operations-zh" + ".txt",
	"amdgpu-usage" + ".txt",
	"gcn-memory-handling" + ".txt",
}

// textExts are the extensions of the tracked files the test reads.
var textExts = []string{".md", ".go", ".txt", ".s", ".cl", ".yaml", ".yml", ".json", ".sh"}

// generatedRE matches the header line of a generated table (isa/tables,
// the golden files of isa/testdata, isa/tables.go).
var generatedRE = regexp.MustCompile(`(?m)^(?:# |// )(?:Code generated|Generated (?:by|from))`)

// trackedTextFiles returns the repository root and its tracked text files
// (paths relative to the root), leaving out generated tables and binaries.
func trackedTextFiles(t *testing.T) (string, []string) {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse --show-toplevel: %v (the test lists the repository's files with git)", err)
	}
	root := strings.TrimSpace(string(out))
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	if out, err = cmd.Output(); err != nil {
		t.Fatalf("git ls-files in %s: %v", root, err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f == "" || !slices.Contains(textExts, filepath.Ext(f)) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		head := b[:min(len(b), 1024)]
		if bytes.IndexByte(head, 0) >= 0 {
			continue // a binary that happens to have a text extension
		}
		if ext := filepath.Ext(f); (ext == ".txt" || ext == ".go") && generatedRE.Match(head) {
			continue
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("git ls-files in %s listed no text files", root)
	}
	return root, files
}

// TestNoCitationsOutsideRepository fails when a tracked file names a
// document outside the repository or cites a section (§N) that
// REFERENCES.md does not list, and when a sample walkthrough or the
// top-level README does not link REFERENCES.md.
func TestNoCitationsOutsideRepository(t *testing.T) {
	root, files := trackedTextFiles(t)
	_, titled := referenceRows(t)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(root, f))
			if err != nil {
				t.Fatal(err)
			}
			text := strings.ToLower(string(b))
			for _, name := range privateNames {
				if i := strings.Index(text, name); i >= 0 {
					line := strings.Count(text[:i], "\n") + 1
					t.Errorf("%s:%d names %q, a file outside the repository; cite a public document instead (samples/REFERENCES.md)", f, line, name)
				}
			}
			for _, m := range sectionRE.FindAllStringSubmatchIndex(text, -1) {
				if sec := text[m[2]:m[3]]; !titled[sec] {
					line := strings.Count(text[:m[0]], "\n") + 1
					t.Errorf("%s:%d cites §%s, which samples/REFERENCES.md does not list", f, line, sec)
				}
			}
		})
	}
	links := []struct{ file, link string }{
		{"README.md", "samples/REFERENCES.md"},
	}
	for _, s := range All() {
		links = append(links, struct{ file, link string }{"samples/" + s.Name + "/README.md", "](../REFERENCES.md)"})
	}
	for _, l := range links {
		t.Run(l.file+" links REFERENCES.md", func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(root, l.file))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte(l.link)) {
				t.Errorf("%s does not link REFERENCES.md (want %q)", l.file, l.link)
			}
		})
	}
}

var (
	sectionRE  = regexp.MustCompile(`§(\d+(?:\.\d+)*)`)
	headingRE  = regexp.MustCompile(`AMDGPUUsage, "([^"]+)"`)
	fileLineRE = regexp.MustCompile(`[\w-]+\.(?:md|txt):\d`)
	spaceRE    = regexp.MustCompile(`\s+`)
)

// referenceRow is one row of REFERENCES.md's table of sections by sample.
type referenceRow struct {
	vega, usage []string
}

// referenceRows parses REFERENCES.md's "Sections each sample cites" table
// and the list of section titles.
func referenceRows(t *testing.T) (map[string]referenceRow, map[string]bool) {
	t.Helper()
	b, err := os.ReadFile("REFERENCES.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]referenceRow{}
	titled := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(line, "| ") {
			continue
		}
		first := strings.TrimSpace(cells[1])
		if m := sectionRE.FindStringSubmatch(first); m != nil && m[0] == first {
			titled[m[1]] = true
			continue
		}
		if len(cells) == 6 && first != "sample" && !strings.HasPrefix(first, "-") {
			rows[first] = referenceRow{
				vega:  sectionsOf(cells[2]),
				usage: headingsOf(cells[3]),
			}
		}
	}
	return rows, titled
}

// sectionsOf returns the sorted, distinct section numbers text cites.
func sectionsOf(text string) []string {
	var out []string
	for _, m := range sectionRE.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// headingsOf returns the sorted, distinct quoted headings in text.
func headingsOf(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestReferencesListCitedSections holds REFERENCES.md to the walkthroughs:
// each sample's row lists exactly the Vega ISA sections and AMDGPUUsage
// headings its walkthrough cites, every cited section has a title in the
// list, and no walkthrough cites a file by line number.
func TestReferencesListCitedSections(t *testing.T) {
	rows, titled := referenceRows(t)
	for _, s := range All() {
		t.Run(s.Name, func(t *testing.T) {
			text := spaceRE.ReplaceAllString(s.Walkthrough, " ")
			if m := fileLineRE.FindString(text); m != "" {
				t.Errorf("the walkthrough cites %q by line; cite a public document by title and section", m)
			}
			row, ok := rows[s.Name]
			if !ok {
				t.Fatalf("REFERENCES.md has no row for %s", s.Name)
			}
			secs := sectionsOf(text)
			if !slices.Equal(secs, row.vega) {
				t.Errorf("the walkthrough cites Vega ISA §%v; REFERENCES.md lists §%v", secs, row.vega)
			}
			for _, sec := range secs {
				if !titled[sec] {
					t.Errorf("§%s has no title in REFERENCES.md's list of sections", sec)
				}
			}
			var heads []string
			for _, m := range headingRE.FindAllStringSubmatch(text, -1) {
				heads = append(heads, m[1])
			}
			slices.Sort(heads)
			heads = slices.Compact(heads)
			if !slices.Equal(heads, row.usage) {
				t.Errorf("the walkthrough cites AMDGPUUsage %q; REFERENCES.md lists %q", heads, row.usage)
			}
		})
	}
	if len(rows) != len(All()) {
		t.Errorf("REFERENCES.md lists %d samples, there are %d", len(rows), len(All()))
	}
}
