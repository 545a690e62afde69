package samples

import (
	"cmp"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/wavedbg/wavedbg/emu/manifest"
	"gopkg.in/yaml.v3"
)

// order is the teaching order within a topic; All sorts the samples by
// topic (Topics' order) first, so the picker shows them grouped.
var order = []string{
	"smem_forms",
	"lgkm_count",
	"missing_waitcnt",
	"counter_order",
	"sbuffer_range",
	"scalar_cache",
	"l1_incoherence",
	"dcache_wb_endpgm",
	"mubuf_addressing",
	"buffer_format",
	"buffer_atomics",
	"scratch_private",
	"flat_apertures",
	"lds_direct",
	"ds_banks",
	"exec_divergence",
	"memtime",
	"vector_add",
	"reduction",
	"smem_gfx8_gfx9",
}

//go:embed */*.s */*.cl */*.co */README.md */manifest.json */tour.yaml
var files embed.FS

// Sample is one bundled teaching kernel.
type Sample struct {
	Name        string // directory and kernel name, e.g. "smem_forms"
	Description string // one line for the sample picker
	Topic       string // the picker's group, from tour.yaml: one of Topics
	Target      string // the processor CodeObject is built for: DefaultTarget or a variant's
	Walkthrough string // README.md: what to watch, step by step (Markdown)
	SourceFile  string // e.g. "smem_forms.s" or "vector_add.cl"
	Source      string // the assembly or OpenCL C source
	Assembly    string // the assembly: Source itself, or what clang generated for OpenCL
	CodeObject  []byte // the ELF code object built from Source by build.sh; do not modify
	Kernel      string // the kernel to run (its descriptor symbol is Kernel+".kd")

	// Manifest is manifest.json: the kernel, grid and block sizes and every
	// argument's contents in emu/manifest's run-manifest format, so that a
	// sample can be dispatched without flags. It uses fill patterns only, so
	// it needs no files beside it. Do not modify.
	Manifest []byte

	// Variants are the same sample built for other processors, from
	// NAME.TARGET.s (e.g. smem_gfx8_gfx9.gfx803.s): the same walkthrough,
	// README and manifest. Variants themselves have none.
	Variants []Sample
	targets  []string // every target of the directory, DefaultTarget first
}

// DefaultTarget is the processor a sample's NAME.s or NAME.cl is built for.
const DefaultTarget = "gfx900"

// ID names the sample in the picker and for Lookup: Name, or for a
// variant "NAME (TARGET)".
func (s Sample) ID() string {
	if s.Target == DefaultTarget {
		return s.Name
	}
	return s.Name + " (" + s.Target + ")"
}

// All returns every bundled sample in teaching order. The slice is new on
// each call; the code object bytes are shared and must not be modified.
func All() []Sample {
	all, err := load()
	if err != nil {
		panic(err) // the embedded files are checked by TestAll
	}
	return append([]Sample(nil), all...)
}

// Lookup returns the sample whose ID is id: a sample by name, or one of
// its variants as "NAME (TARGET)".
func Lookup(id string) (Sample, bool) {
	for _, s := range All() {
		for _, v := range append([]Sample{s}, s.Variants...) {
			if v.ID() == id {
				return v, true
			}
		}
	}
	return Sample{}, false
}

// RunManifest parses the sample's manifest. Its arguments use fill patterns
// only, so Arg.Bytes needs no directory.
func (s Sample) RunManifest() (*manifest.Manifest, error) {
	return manifest.Parse(s.Manifest, "")
}

// Default is the sample the debugger opens when it is given nothing else.
func Default() Sample { return All()[0] }

var load = sync.OnceValues(func() ([]Sample, error) {
	all := make([]Sample, 0, len(order))
	for _, name := range order {
		s, err := read(name)
		if err != nil {
			return nil, fmt.Errorf("samples: %s: %v", name, err)
		}
		all = append(all, s)
	}
	// Grouped by topic, in teaching order within each (a stable sort).
	slices.SortStableFunc(all, func(a, b Sample) int {
		return cmp.Compare(slices.Index(Topics, a.Topic), slices.Index(Topics, b.Topic))
	})
	return all, nil
})

// read assembles one Sample, with its variants, from its directory.
func read(name string) (Sample, error) {
	s := Sample{Name: name, Target: DefaultTarget, targets: []string{DefaultTarget}}
	for _, ext := range []string{".s", ".cl"} {
		if b, err := files.ReadFile(path.Join(name, name+ext)); err == nil {
			s.SourceFile, s.Source = name+ext, string(b)
			break
		}
	}
	if s.SourceFile == "" {
		return s, fmt.Errorf("no %s.s or %s.cl", name, name)
	}
	s.Assembly = s.Source
	if strings.HasSuffix(s.SourceFile, ".cl") {
		b, err := files.ReadFile(path.Join(name, name+".cl.s"))
		if err != nil {
			return s, err
		}
		s.Assembly = string(b)
	}
	var err error
	if s.CodeObject, err = files.ReadFile(path.Join(name, name+".co")); err != nil {
		return s, err
	}
	walk, err := files.ReadFile(path.Join(name, "README.md"))
	if err != nil {
		return s, err
	}
	s.Walkthrough = string(walk)
	// The walkthrough's title is "# name — description".
	title, _, _ := strings.Cut(s.Walkthrough, "\n")
	desc, ok := strings.CutPrefix(title, "# "+name+" — ")
	if !ok || desc == "" {
		return s, fmt.Errorf("README.md title %q is not \"# %s — description\"", title, name)
	}
	s.Description = desc
	if s.Manifest, err = files.ReadFile(path.Join(name, "manifest.json")); err != nil {
		return s, err
	}
	m, err := manifest.Parse(s.Manifest, "")
	if err != nil {
		return s, fmt.Errorf("manifest.json: %v", err)
	}
	if m.Kernel != name {
		return s, fmt.Errorf("manifest.json names kernel %q", m.Kernel)
	}
	s.Kernel = m.Kernel
	if s.Topic, err = readTopic(name); err != nil {
		return s, err
	}
	return s, readVariants(&s)
}

// readVariants adds the variants of s: NAME.TARGET.s built into
// NAME.TARGET.co (build.sh).
func readVariants(s *Sample) error {
	srcs, _ := fs.Glob(files, path.Join(s.Name, s.Name+".gfx*.s"))
	for _, src := range srcs {
		target := strings.TrimSuffix(strings.TrimPrefix(path.Base(src), s.Name+"."), ".s")
		s.targets = append(s.targets, target)
	}
	for _, target := range s.targets[1:] {
		v := *s
		v.Target, v.SourceFile = target, s.Name+"."+target+".s"
		b, err := files.ReadFile(path.Join(s.Name, v.SourceFile))
		if err != nil {
			return err
		}
		v.Source, v.Assembly = string(b), string(b)
		if v.CodeObject, err = files.ReadFile(path.Join(s.Name, s.Name+"."+target+".co")); err != nil {
			return fmt.Errorf("variant %s: %v (run build.sh)", target, err)
		}
		v.Variants = nil
		s.Variants = append(s.Variants, v)
	}
	return nil
}

// Item is a sample as the picker lists it. It satisfies the item interfaces
// of Bubbles' list (Title, Description, FilterValue), so a picker can hand
// Items() to list.New with the default delegate.
type Item struct{ Sample }

// Items returns All() as picker items, each sample followed by its
// variants: grouped by topic, in Topics' order.
func Items() []Item {
	var out []Item
	for _, s := range All() {
		out = append(out, Item{s})
		for _, v := range s.Variants {
			out = append(out, Item{v})
		}
	}
	return out
}

// Title is the sample's ID: its name, or "NAME (TARGET)" for a variant.
func (i Item) Title() string { return i.ID() }

// Group is the sample's topic, the picker's heading for it.
func (i Item) Group() string { return i.Topic }

// Description is the sample's one-line description; a variant's says
// which build it is.
func (i Item) Description() string {
	if i.Target != DefaultTarget {
		return "[" + i.Target + " build] " + i.Sample.Description
	}
	return i.Sample.Description
}

// FilterValue is what the picker's filter matches: name (with the
// target of a variant), description and topic.
func (i Item) FilterValue() string { return i.ID() + " " + i.Sample.Description + " " + i.Topic }

// readTopic reads the topic from NAME/tour.yaml (Tour parses the rest).
func readTopic(name string) (string, error) {
	data, err := files.ReadFile(path.Join(name, "tour.yaml"))
	if err != nil {
		return "", fmt.Errorf("no tour.yaml: every sample names its topic there")
	}
	var t struct {
		Topic string `yaml:"topic"`
	}
	if err := yaml.Unmarshal(data, &t); err != nil {
		return "", fmt.Errorf("tour.yaml: %v", err)
	}
	if !slices.Contains(Topics, t.Topic) {
		return "", fmt.Errorf("tour.yaml: topic %q is not one of %s", t.Topic, strings.Join(Topics, ", "))
	}
	return t.Topic, nil
}
