package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/wavedbg/wavedbg/loader"
)

func init() {
	register(command{name: "info", summary: "summarise a code object, bundle or fat binary", run: runInfo})
}

func runInfo(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print JSON (schema wavedbg/1, doc/wavedbg.schema.json) instead of text")
	list := fs.Bool("list-bundles", false, "list the code objects a bundle or fat binary holds")
	target := fs.String("target", "", "choose code objects by `gfxNNN` or target ID (default: the first GCN one)")
	kernel := fs.String("kernel", "", "describe only kernel `NAME`, from whichever bundle defines it")
	var bundle *int
	bundleFlag(fs, &bundle)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: wavedbg info FILE [--json] [--list-bundles] [--target gfxNNN] [--kernel NAME [--bundle N]]\n\n"+
			"Summarise an AMDGPU code object (.co/.hsaco/.o), an offload bundle (plain or\n"+
			"compressed) or a host ELF with a .hip_fatbin section. When several bundles hold\n"+
			"code objects for the target, list every one with its kernels.\n\n")
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		fs.Usage()
		return usageError{"info: want exactly one FILE"}
	}
	c, err := openInput(files[0], *target)
	if err != nil {
		return err
	}
	defer c.Close()
	if *list {
		if *jsonOut {
			return writeJSON(stdout, listing(c))
		}
		printBundles(stdout, c)
		return nil
	}
	if *kernel == "" && bundle == nil && c.Bundles > 1 {
		es := gcnEntries(c)
		if *target != "" {
			es, _ = c.Matching(*target) // LoadFrom reports an error
		}
		if len(es) > 1 {
			if *jsonOut {
				return writeJSON(stdout, kernelListJSON(c, es))
			}
			printKernelList(stdout, listKernels(c, es))
			return nil
		}
	}
	co, err := loader.LoadFrom(c, loadOptions(*target, *kernel, bundle))
	if err != nil {
		return withBundleHint(err)
	}
	if *kernel != "" {
		k := co.Kernel(*kernel)
		if k == nil {
			return fmt.Errorf("info: %s: no kernel %q", co.File.Name(), *kernel)
		}
		co.Kernels = []loader.Kernel{*k}
	}
	if *jsonOut {
		return writeJSON(stdout, summary(co))
	}
	printInfo(stdout, co)
	return nil
}

// gcnEntries lists every GCN code object of c, in file order.
func gcnEntries(c *loader.Container) []*loader.BundleEntry {
	var es []*loader.BundleEntry
	for i := range c.Entries {
		if e := &c.Entries[i]; e.IsAMDGPU() && loader.IsGCN(e.Processor()) {
			es = append(es, e)
		}
	}
	return es
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printBundles(w io.Writer, c *loader.Container) {
	fmt.Fprintf(w, "%s: %s, %d bundles, %d entries\n", c.Name, c.Kind, c.Bundles, len(c.Entries))
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "BUNDLE\tAT\tOFFSET\tSIZE\tCOMPRESSION\tID\n")
	for _, e := range c.Entries {
		comp := e.Compression
		if comp == "" {
			comp = "-"
		}
		fmt.Fprintf(tw, "%d\t%#x\t%#x\t%d\t%s\t%s\n", e.Bundle, e.BundleOffset, e.Offset, e.Size, comp, e.ID)
	}
	tw.Flush()
}

// allocated gives the SGPRs and VGPRs the granulated counts allocate.
func allocated(k *loader.Kernel, proc string) (sgprs, vgprs int) {
	switch {
	case k.Descriptor != nil:
		r := k.Descriptor.Rsrc1
		return r.SGPRs(proc), r.VGPRs(proc, k.Descriptor.Properties.EnableWavefrontSize32)
	case k.CodeT != nil:
		return k.CodeT.Rsrc1.SGPRs(proc), k.CodeT.Rsrc1.VGPRs(proc, false)
	}
	return 0, 0
}

func regList(uses []loader.RegUse, prefix string) string {
	var s []string
	for _, u := range uses {
		r := fmt.Sprintf("%s%d", prefix, u.First)
		if u.Count > 1 {
			r = fmt.Sprintf("%s[%d:%d]", prefix, u.First, u.First+u.Count-1)
		}
		if u.Packed {
			r += " (packed)"
		}
		s = append(s, r+" "+u.Name)
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func descriptorFields(k *loader.Kernel, proc string) []loader.Field {
	switch {
	case k.Descriptor != nil:
		return k.Descriptor.Fields(proc)
	case k.CodeT != nil:
		return k.CodeT.Fields(proc)
	}
	return nil
}

func printInfo(w io.Writer, co *loader.CodeObject) {
	f := co.File
	fmt.Fprintf(w, "file:         %s\n", co.Container.Name)
	fmt.Fprintf(w, "container:    %s", co.Container.Kind)
	if co.Container.Kind != loader.KindCodeObject {
		fmt.Fprintf(w, " (%d bundles, %d entries), bundle %d entry %s", co.Container.Bundles, len(co.Container.Entries), co.Entry.Bundle, co.Entry.ID)
	}
	fmt.Fprintln(w)
	t := co.Target
	fmt.Fprintf(w, "target:       %s\n", t)
	fmt.Fprintf(w, "processor:    %s (EF_AMDGPU_MACH %#03x), xnack %s, sramecc %s\n", t.Processor, uint8(t.Mach), t.XNACK, t.SRAMECC)
	if t.FlagsMach != 0 {
		fmt.Fprintf(w, "              (e_flags name %s, EF_AMDGPU_MACH %#03x; the NT_AMD_HSA_ISA_VERSION note names %s)\n", t.FlagsMach, uint8(t.FlagsMach), t.Processor)
	}
	fmt.Fprintf(w, "code object:  v%d (%v, EI_ABIVERSION %d, e_flags %#x)\n", co.Version, f.OSABI, f.ABIVersion, f.Flags)
	fmt.Fprintf(w, "type:         %v\n", f.Type)
	if co.Text != nil {
		fmt.Fprintf(w, ".text:        [%#x, %#x) %d bytes\n", co.Text.Addr, co.Text.Addr+co.Text.Size, co.Text.Size)
	}
	if m := co.Metadata; m != nil {
		fmt.Fprintf(w, "metadata:     version %d.%d", m.Version[0], m.Version[1])
		if m.Target != "" {
			fmt.Fprintf(w, ", target %s", m.Target)
		}
		if len(m.Printf) > 0 {
			fmt.Fprintf(w, ", %d printf formats", len(m.Printf))
		}
		fmt.Fprintln(w)
		if v2 := m.V2; v2 != nil {
			fmt.Fprintf(w, "v2 notes:     code object %d.%d, ISA %s %s %d.%d.%d, ISA name %s\n",
				v2.CodeObjectVersion[0], v2.CodeObjectVersion[1], v2.ISAVendor, v2.ISAArch,
				v2.ISAVersion[0], v2.ISAVersion[1], v2.ISAVersion[2], v2.ISAName)
		}
	}
	fmt.Fprintf(w, "kernels:      %d\n", len(co.Kernels))
	for i := range co.Kernels {
		printKernel(w, co, &co.Kernels[i])
	}
}

func printKernel(w io.Writer, co *loader.CodeObject, k *loader.Kernel) {
	proc := co.Target.Processor
	fmt.Fprintf(w, "\nkernel %s\n", k.Name)
	if k.CodeT != nil {
		fmt.Fprintf(w, "  descriptor   amd_kernel_code_t %s at %#x\n", k.DescriptorSymbol, k.DescriptorAddr)
	} else {
		fmt.Fprintf(w, "  descriptor   %s at %#x\n", k.DescriptorSymbol, k.DescriptorAddr)
	}
	fmt.Fprintf(w, "  entry        %#x in %s", k.Entry, k.CodeSection)
	if k.CodeSize > 0 {
		fmt.Fprintf(w, ", %d bytes of code", k.CodeSize)
	}
	fmt.Fprintln(w)
	if m := k.Meta; m != nil {
		if m.Language != "" {
			fmt.Fprintf(w, "  language     %s %s\n", m.Language, joinUints(m.LanguageVersion, "."))
		}
		fmt.Fprintf(w, "  segments     kernarg %d (align %d), group %d, private %d", m.KernargSegmentSize, m.KernargSegmentAlign, m.GroupSegmentFixedSize, m.PrivateSegmentFixedSize)
		if m.UsesDynamicStack {
			fmt.Fprintf(w, ", dynamic stack")
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  registers    sgpr %d, vgpr %d, agpr %d; spilled sgpr %d, vgpr %d\n", m.SGPRCount, m.VGPRCount, m.AGPRCount, m.SGPRSpillCount, m.VGPRSpillCount)
		fmt.Fprintf(w, "  wavefront    %d lanes, max flat work-group size %d\n", m.WavefrontSize, m.MaxFlatWorkgroupSize)
		if m.ReqdWorkgroupSize != nil {
			fmt.Fprintf(w, "  required work-group size  %s\n", joinUints(m.ReqdWorkgroupSize, "×"))
		}
		if m.WorkgroupSizeHint != nil {
			fmt.Fprintf(w, "  work-group size hint      %s\n", joinUints(m.WorkgroupSizeHint, "×"))
		}
		if m.VecTypeHint != "" {
			fmt.Fprintf(w, "  vec type hint %s\n", m.VecTypeHint)
		}
		fmt.Fprintf(w, "  arguments    %d\n", len(m.Args))
		tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		fmt.Fprintf(tw, "    OFFSET\tSIZE\tKIND\tSPACE\tQUALIFIERS\tTYPE\tNAME\n")
		for _, a := range m.Args {
			fmt.Fprintf(tw, "    %d\t%d\t%s\t%s\t%s\t%s\t%s\n", a.Offset, a.Size, a.ValueKind, dash(a.AddressSpace), dash(qualifiers(a)), dash(a.TypeName), dash(a.Name))
		}
		tw.Flush()
	}
	if sg, vg := allocated(k, proc); vg > 0 {
		if sg > 0 {
			fmt.Fprintf(w, "  allocated    sgpr %d, vgpr %d (from the granulated counts)\n", sg, vg)
		} else {
			fmt.Fprintf(w, "  allocated    vgpr %d (from the granulated count)\n", vg)
		}
		fmt.Fprintf(w, "  initial SGPRs %s\n", regList(k.InitialSGPRs(), "s"))
		fmt.Fprintf(w, "  initial VGPRs %s\n", regList(k.InitialVGPRs(proc), "v"))
	}
	if fields := descriptorFields(k, proc); fields != nil {
		what := "kernel descriptor"
		if k.CodeT != nil {
			what = "amd_kernel_code_t"
		}
		fmt.Fprintf(w, "  %s\n", what)
		tw := tabwriter.NewWriter(w, 0, 8, 1, ' ', 0)
		for _, fl := range fields {
			indent := "    "
			if strings.Contains(fl.Name, ".") {
				indent = "      "
			}
			fmt.Fprintf(tw, "%s%s\t%#x\n", indent, fl.Name, fl.Value)
		}
		tw.Flush()
	}
	if bad := k.Check(proc); len(bad) > 0 {
		fmt.Fprintf(w, "  problems\n")
		for _, b := range bad {
			fmt.Fprintf(w, "    %s\n", b)
		}
	}
}

// qualifiers lists an argument's access and type qualifiers, "read_only,const".
func qualifiers(a loader.Arg) string {
	var q []string
	if a.Access != "" {
		q = append(q, a.Access)
	}
	if a.ActualAccess != "" && a.ActualAccess != a.Access {
		q = append(q, "actual "+a.ActualAccess)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{a.IsConst, "const"}, {a.IsRestrict, "restrict"}, {a.IsVolatile, "volatile"}, {a.IsPipe, "pipe"}} {
		if f.on {
			q = append(q, f.name)
		}
	}
	if a.PointeeAlign != 0 {
		q = append(q, fmt.Sprintf("align %d", a.PointeeAlign))
	}
	return strings.Join(q, ",")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func joinUints(xs []uint64, sep string) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, sep)
}

// parseInterspersed parses fs's flags from args, which may stand before,
// between or after the positional arguments, and returns the latter. A
// parse error is a usageError; -h returns flag.ErrHelp.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, err
			}
			return nil, usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
