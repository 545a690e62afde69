package samples

import (
	"embed"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/wavedbg/wavedbg/emu/manifest"
)

// order is the teaching order, which is also the picker's order: scalar
// memory first, then vector memory, then whole programs.
var order = []string{
	"smem_forms",
	"lgkm_count",
	"missing_waitcnt",
	"sbuffer_range",
	"scalar_cache",
	"mubuf_addressing",
	"buffer_format",
	"lds_direct",
	"scratch_private",
	"ds_banks",
	"flat_apertures",
	"vector_add",
	"reduction",
}

//go:embed */*.s */*.cl */*.co */README.md */manifest.json */tour.yaml
var files embed.FS

// Sample is one bundled teaching kernel.
type Sample struct {
	Name        string // directory and kernel name, e.g. "smem_forms"
	Description string // one line for the sample picker
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

// Lookup returns the sample called name.
func Lookup(name string) (Sample, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
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
	return all, nil
})

// read assembles one Sample from its directory.
func read(name string) (Sample, error) {
	s := Sample{Name: name}
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
	return s, nil
}

// Item is a sample as the picker lists it. It satisfies the item interfaces
// of Bubbles' list (Title, Description, FilterValue), so a picker can hand
// Items() to list.New with the default delegate.
type Item struct{ Sample }

// Items returns All() as picker items.
func Items() []Item {
	all := All()
	out := make([]Item, len(all))
	for i, s := range all {
		out[i] = Item{s}
	}
	return out
}

// Title is the sample's name.
func (i Item) Title() string { return i.Name }

// Description is the sample's one-line description.
func (i Item) Description() string { return i.Sample.Description }

// FilterValue is what the picker's filter matches: name and description.
func (i Item) FilterValue() string { return i.Name + " " + i.Sample.Description }
