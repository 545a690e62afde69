package loader

import (
	"fmt"
	"slices"
	"strings"
)

// Finding a kernel across the bundles of a fat binary: librocsparse holds
// 111 bundles, and a kernel lives in one of them (or in several).

// An AmbiguousKernelError says that a kernel name is defined by several of
// the code objects a Load could choose; LoadOptions.Bundle (or a more
// precise Target) picks one.
type AmbiguousKernelError struct {
	Kernel  string
	Entries []*BundleEntry // the code objects defining it, in file order
}

func (e *AmbiguousKernelError) Error() string {
	var where []string
	for _, en := range e.Entries {
		where = append(where, fmt.Sprintf("bundle %d (%s)", en.Bundle, en.TargetID))
	}
	return fmt.Sprintf("kernel %q is in %d code objects: %s; choose one by bundle index", e.Kernel, len(e.Entries), strings.Join(where, ", "))
}

// Bundles lists the bundle indices of the entries, without repeats.
func (e *AmbiguousKernelError) Bundles() []int {
	var out []int
	for _, en := range e.Entries {
		if !slices.Contains(out, en.Bundle) {
			out = append(out, en.Bundle)
		}
	}
	return out
}

// A NoKernelError says that no code object Load could choose defines the
// kernel.
type NoKernelError struct {
	Kernel  string
	Objects int      // how many code objects were searched
	Target  string   // their target ID
	Kernels []string // with one code object, the kernels it has
}

func (e *NoKernelError) Error() string {
	if e.Objects == 1 {
		names := e.Kernels
		if len(names) > 8 {
			names = append(slices.Clip(names[:8]), fmt.Sprintf("and %d more", len(names)-8))
		}
		if len(names) == 0 {
			return fmt.Sprintf("no kernel %q (the code object has none)", e.Kernel)
		}
		return fmt.Sprintf("no kernel %q (kernels: %s)", e.Kernel, strings.Join(names, ", "))
	}
	return fmt.Sprintf("no kernel %q in any of the %d code objects for %s", e.Kernel, e.Objects, e.Target)
}

// Find picks the entry LoadFrom loads for opts: the first entry matching
// opts.Target in opts.Bundle (when set) that defines opts.Kernel (when
// set). With no Target, the GCN target IDs are tried in file order and
// the first with a matching entry wins. Finding a kernel decodes every
// candidate once; the Container remembers their kernel names.
func (c *Container) Find(opts LoadOptions) (*BundleEntry, error) {
	groups, err := c.candidates(opts.Target)
	if err != nil {
		return nil, err
	}
	if opts.Bundle != nil {
		b := *opts.Bundle
		for i := range groups {
			groups[i] = slices.DeleteFunc(groups[i], func(e *BundleEntry) bool { return e.Bundle != b })
		}
		groups = slices.DeleteFunc(groups, func(g []*BundleEntry) bool { return len(g) == 0 })
		if len(groups) == 0 {
			what := "GCN code object"
			if opts.Target != "" {
				what = "code object for " + opts.Target
			}
			if c.Bundles == 0 {
				return nil, fmt.Errorf("no bundle %d: the file is a single code object", b)
			}
			return nil, fmt.Errorf("no %s in bundle %d (the file has bundles 0 to %d)", what, b, c.Bundles-1)
		}
	}
	if opts.Kernel == "" {
		return groups[0][0], nil
	}
	var firstErr error
	var names []string
	objects := 0
	for _, es := range groups {
		var hits []*BundleEntry
		for _, e := range es {
			objects++
			ns, err := c.KernelNames(e)
			if err != nil {
				if firstErr == nil {
					firstErr = nameErr(err, c.entryName(e))
				}
				continue
			}
			names = ns
			if slices.Contains(ns, opts.Kernel) {
				hits = append(hits, e)
			}
		}
		switch {
		case len(hits) == 1:
			return hits[0], nil
		case len(hits) > 1:
			return nil, &AmbiguousKernelError{Kernel: opts.Kernel, Entries: hits}
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	nk := &NoKernelError{Kernel: opts.Kernel, Objects: objects, Target: groups[0][0].TargetID}
	if len(groups) > 1 {
		nk.Target = "any GCN target"
	}
	if objects == 1 {
		nk.Kernels = names
	}
	return nil, nk
}

// candidates groups the entries Find chooses from: for a target, those
// Matching returns; for none, every GCN entry, one group per target ID in
// file order.
func (c *Container) candidates(target string) ([][]*BundleEntry, error) {
	first, err := c.Matching(target)
	if err != nil || target != "" || c.Kind == KindCodeObject {
		return [][]*BundleEntry{first}, err
	}
	var groups [][]*BundleEntry
	for i := range c.Entries {
		e := &c.Entries[i]
		if !e.IsAMDGPU() || !IsGCN(e.Processor()) {
			continue
		}
		k := slices.IndexFunc(groups, func(g []*BundleEntry) bool { return g[0].TargetID == e.TargetID })
		if k < 0 {
			groups = append(groups, nil)
			k = len(groups) - 1
		}
		groups[k] = append(groups[k], e)
	}
	return groups, nil
}

// KernelNames returns the names of the kernels e's code object defines,
// decoding it the first time.
func (c *Container) KernelNames(e *BundleEntry) ([]string, error) {
	if ns, ok := c.names[e]; ok {
		return ns, nil
	}
	co, err := e.Load()
	if err != nil {
		return nil, err
	}
	return c.rememberNames(e, co), nil
}

// rememberNames records the kernel names of e's code object co.
func (c *Container) rememberNames(e *BundleEntry, co *CodeObject) []string {
	ns := make([]string, len(co.Kernels))
	for i, k := range co.Kernels {
		ns[i] = k.Name
	}
	if c.names == nil {
		c.names = map[*BundleEntry][]string{}
	}
	c.names[e] = ns
	return ns
}
