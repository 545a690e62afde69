package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/wavedbg/wavedbg/loader"
)

// Choosing code objects in files that hold many: --target picks the
// target, --kernel the code object that defines a kernel (in whichever
// bundle), --bundle the bundle when a kernel is in several.

// bundleFlag adds --bundle N to fs, setting *b when given.
func bundleFlag(fs *flag.FlagSet, b **int) {
	fs.Func("bundle", "with a bundle or fat binary, use the code object in bundle `N` (see --list-bundles)", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("want a bundle index, have %q", s)
		}
		*b = &n
		return nil
	})
}

// loadOptions builds LoadOptions from the command line.
func loadOptions(target, kernel string, bundle *int) loader.LoadOptions {
	return loader.LoadOptions{Target: target, Kernel: kernel, Bundle: bundle}
}

// withBundleHint adds the flag that settles an ambiguous kernel.
func withBundleHint(err error) error {
	var ae *loader.AmbiguousKernelError
	if errors.As(err, &ae) {
		return fmt.Errorf("%w (--bundle N)", err)
	}
	return err
}

// chooseEntries lists the code objects a command works on: the one that
// defines kernel (or, when only one code object could, that one: the
// command reports a missing kernel itself), the one of bundle, or every
// one for target, in file order.
func chooseEntries(c *loader.Container, target, kernel string, bundle *int) ([]*loader.BundleEntry, error) {
	if kernel == "" && bundle == nil {
		return c.Matching(target)
	}
	e, err := c.Find(loadOptions(target, kernel, bundle))
	var nk *loader.NoKernelError
	if errors.As(err, &nk) && nk.Objects == 1 {
		e, err = c.Find(loadOptions(target, "", bundle))
	}
	if err != nil {
		return nil, withBundleHint(err)
	}
	return []*loader.BundleEntry{e}, nil
}

// loadEntry decodes entry e of c; errors name the file and entry.
func loadEntry(c *loader.Container, e *loader.BundleEntry) (*loader.CodeObject, error) {
	b := e.Bundle
	return loader.LoadFrom(c, loader.LoadOptions{Target: e.ID, Bundle: &b})
}

// entryHeader is the line that introduces one code object of a bundle or
// fat binary in a listing.
func entryHeader(e *loader.BundleEntry) string {
	return fmt.Sprintf("; bundle %d at %#x: %s", e.Bundle, e.BundleOffset, e.ID)
}

// bundleKernels is the `info` listing of a file with many code objects:
// every code object for the target, with its kernels.
type bundleKernels struct {
	File        string
	Container   string
	Bundles     int
	CodeObjects []codeObjectKernels
}

type codeObjectKernels struct {
	Bundle            int
	BundleOffset      int64
	ID                string
	Target            string
	CodeObjectVersion int
	Kernels           []string // in the code object's order
	Error             string   // why it could not be loaded
}

// listKernels loads every code object of es.
func listKernels(c *loader.Container, es []*loader.BundleEntry) bundleKernels {
	out := bundleKernels{File: c.Name, Container: c.Kind.String(), Bundles: c.Bundles, CodeObjects: []codeObjectKernels{}}
	for _, e := range es {
		row := codeObjectKernels{Bundle: e.Bundle, BundleOffset: e.BundleOffset, ID: e.ID, Target: e.TargetID, Kernels: []string{}}
		if co, err := e.Load(); err != nil {
			row.Error = err.Error()
		} else {
			row.CodeObjectVersion = co.Version
			for _, k := range co.Kernels {
				row.Kernels = append(row.Kernels, k.Name)
			}
		}
		out.CodeObjects = append(out.CodeObjects, row)
	}
	return out
}

// kernelListJSON is the info --json document of the same listing: every
// code object of es, its kernels without their details.
func kernelListJSON(c *loader.Container, es []*loader.BundleEntry) infoDoc {
	d := newInfoDoc(c)
	for _, e := range es {
		co, err := e.Load()
		if err != nil {
			d.CodeObjects = append(d.CodeObjects, infoCodeObject{Entry: entryJSON(c, e), Target: entryTarget(e), Error: err.Error()})
			continue
		}
		d.CodeObjects = append(d.CodeObjects, codeObjectJSON(co, c, e, false))
	}
	return d
}

func printKernelList(w io.Writer, l bundleKernels) {
	n := 0
	for _, co := range l.CodeObjects {
		n += len(co.Kernels)
	}
	fmt.Fprintf(w, "%s: %s, %d bundles, %d code objects, %d kernels\n", l.File, l.Container, l.Bundles, len(l.CodeObjects), n)
	fmt.Fprintf(w, "(info FILE --kernel NAME [--bundle N] describes one)\n")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "BUNDLE\tTARGET\tCODE OBJECT\tKERNEL\n")
	for _, co := range l.CodeObjects {
		v := "v" + strconv.Itoa(co.CodeObjectVersion)
		switch {
		case co.Error != "":
			fmt.Fprintf(tw, "%d\t%s\t-\t(%s)\n", co.Bundle, co.Target, co.Error)
		case len(co.Kernels) == 0:
			fmt.Fprintf(tw, "%d\t%s\t%s\t(no kernels)\n", co.Bundle, co.Target, v)
		}
		for _, k := range co.Kernels {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", co.Bundle, co.Target, v, k)
		}
	}
	tw.Flush()
}
