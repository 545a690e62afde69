package loader

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// LoadOptions choose the code object Load returns.
type LoadOptions struct {
	// Target picks a code object by processor ("gfx906"), target ID
	// ("gfx90a:xnack+") or full bundle entry ID. Empty means the first
	// GCN (GFX6–GFX9, CDNA) code object.
	Target string
	// Kernel, when set, picks among the code objects for Target the one
	// that defines this kernel, in whichever bundle of a fat binary it is
	// (with no Target, the GCN target IDs are tried in file order). A name
	// defined in several gives an *AmbiguousKernelError.
	Kernel string
	// Bundle, when set, keeps only the code objects of the bundle with
	// this index (BundleEntry.Bundle), settling an ambiguous Kernel.
	Bundle *int
}

// A CodeObject is one loaded AMDGPU code object with its AMDGPU views
// decoded: the one-call result of Load.
type CodeObject struct {
	File      *File
	Container *Container   // where it came from
	Entry     *BundleEntry // which entry of the container
	Version   int          // code object version, 2 to 6 (0 for PAL/Mesa)
	Target    Target
	Metadata  *Metadata // nil if the code object has none
	Kernels   []Kernel
	Text      *Section // .text, nil if absent
}

// Load opens path (a code object, offload bundle, compressed bundle or host
// ELF with .hip_fatbin), picks a code object by opts.Target and decodes its
// target, metadata and kernels. Close the result when done.
func Load(path string, opts LoadOptions) (*CodeObject, error) {
	c, err := OpenContainer(path)
	if err != nil {
		return nil, err
	}
	co, err := LoadFrom(c, opts)
	if err != nil {
		c.Close()
		return nil, err
	}
	return co, nil
}

// LoadFrom picks a code object of an open container and decodes it. The
// CodeObject's Close closes the container.
func LoadFrom(c *Container, opts LoadOptions) (*CodeObject, error) {
	e, err := c.Find(opts)
	if err != nil {
		return nil, nameErr(err, c.Name)
	}
	co, err := e.Load()
	if err != nil {
		return nil, nameErr(err, c.entryName(e))
	}
	co.Container = c
	co.File.name = c.entryName(e)
	c.rememberNames(e, co)
	return co, nil
}

// entryName names an entry in errors: the file, plus the entry ID for
// bundles.
func (c *Container) entryName(e *BundleEntry) string {
	if c.Kind == KindCodeObject {
		return c.Name
	}
	return fmt.Sprintf("%s[%s]", c.Name, e.ID)
}

// Load decodes the entry's code object.
func (e *BundleEntry) Load() (*CodeObject, error) {
	f, err := e.Open()
	if err != nil {
		return nil, err
	}
	return decode(f, e)
}

// NewCodeObject decodes the code object in r (size bytes).
func NewCodeObject(r io.ReaderAt, size int64) (*CodeObject, error) {
	f, err := newFile(r, size, "")
	if err != nil {
		return nil, err
	}
	return decode(f, nil)
}

func decode(f *File, e *BundleEntry) (*CodeObject, error) {
	co := &CodeObject{File: f, Entry: e}
	var err error
	if co.Version, err = f.CodeObjectVersion(); err != nil {
		return nil, err
	}
	if co.Target, err = f.Target(); err != nil {
		return nil, err
	}
	if co.Metadata, err = f.Metadata(); err != nil {
		return nil, err
	}
	if co.Kernels, err = f.kernels(co.Version, co.Metadata); err != nil {
		return nil, err
	}
	co.Text = f.Section(".text")
	return co, nil
}

// Close closes the file the code object was loaded from.
func (co *CodeObject) Close() error {
	if co.Container != nil {
		return co.Container.Close()
	}
	return co.File.Close()
}

// Kernel returns the kernel with the given name, or nil.
func (co *CodeObject) Kernel(name string) *Kernel {
	for i := range co.Kernels {
		if co.Kernels[i].Name == name {
			return &co.Kernels[i]
		}
	}
	return nil
}

// Code returns a kernel's machine code.
func (co *CodeObject) Code(k *Kernel) ([]byte, error) { return co.File.Code(k) }

// TextData returns the address and bytes of the .text section.
func (co *CodeObject) TextData() (addr uint64, data []byte, err error) {
	if co.Text == nil {
		return 0, nil, nameErr(formatErr("section headers", int64(co.File.Shoff), "no .text section"), co.File.name)
	}
	data, err = co.Text.Data()
	return co.Text.Addr, data, err
}

// Select picks an entry: by exact bundle ID, by target ID or processor, or,
// for target "", the first GCN (GFX6–GFX9) entry — or a plain code object's
// only entry, whatever its processor.
func (c *Container) Select(target string) (*BundleEntry, error) {
	es, err := c.Matching(target)
	if err != nil {
		return nil, err
	}
	return es[0], nil
}

// Matching lists, in file order, every entry Select would accept for
// target: those with exactly that bundle ID if there are any, else those
// whose target ID matches; for target "", those with the target ID of the
// first GCN entry. It never returns an empty list without an error.
func (c *Container) Matching(target string) ([]*BundleEntry, error) {
	if target == "" && c.Kind == KindCodeObject && len(c.Entries) == 1 {
		return []*BundleEntry{&c.Entries[0]}, nil
	}
	var gpus []*BundleEntry
	for i := range c.Entries {
		if c.Entries[i].IsAMDGPU() {
			gpus = append(gpus, &c.Entries[i])
		}
	}
	if len(gpus) == 0 {
		return nil, fmt.Errorf("%v holds no AMDGPU code object", c.Kind)
	}
	var out []*BundleEntry
	if target == "" {
		for _, e := range gpus {
			if IsGCN(e.Processor()) {
				target = e.TargetID
				break
			}
		}
		if target == "" {
			return nil, fmt.Errorf("no GCN (gfx6–gfx9) code object among %s; choose one with a target", ids(gpus))
		}
		for _, e := range gpus {
			if e.TargetID == target {
				out = append(out, e)
			}
		}
		return out, nil
	}
	for _, e := range gpus {
		if e.ID == target {
			out = append(out, e)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	want, err := ParseTargetID(target)
	if err != nil {
		return nil, err
	}
	for _, e := range gpus {
		if e.Processor() != want.Processor {
			continue
		}
		have, err := ParseTargetID(e.TargetID)
		if err != nil {
			continue
		}
		if featureMatch(want.XNACK, have.XNACK) && featureMatch(want.SRAMECC, have.SRAMECC) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no code object for target %s among %s", target, ids(gpus))
	}
	return out, nil
}

func featureMatch(want, have Feature) bool {
	return want == FeatureAny || have == FeatureAny || want == have
}

// ids lists the distinct target IDs of es, at most eight of them.
func ids(es []*BundleEntry) string {
	var s []string
	for _, e := range es {
		if !slices.Contains(s, e.TargetID) {
			s = append(s, e.TargetID)
		}
	}
	if len(s) > 8 {
		s = append(s[:8], fmt.Sprintf("and %d more", len(s)-8))
	}
	return strings.Join(s, ", ")
}
