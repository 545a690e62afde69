package asm

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// targetInfo is the processor a file is assembled for.
type targetInfo struct {
	id      string // "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-", as .amdgcn_target spells it
	proc    string
	gen     isa.Target
	feat    isa.Features
	mach    loader.Mach
	xnack   loader.Feature // FeatureAny, On or Off; unsupported is Unsupported
	sramecc loader.Feature
}

// xnackProcs and srameccProcs are the GFX8/GFX9 processors with those
// features (LLVM's FeatureSupportsXNACK and FeatureSupportsSRAMECC).
var (
	xnackProcs   = map[string]bool{"gfx801": true, "gfx810": true, "gfx900": true, "gfx902": true, "gfx904": true, "gfx906": true, "gfx909": true, "gfx90c": true}
	srameccProcs = map[string]bool{"gfx906": true}
)

var targetRe = regexp.MustCompile(`^\s*\.amdgcn_target\s+"([^"]*)"`)

// setTarget settles the target from the options or, failing that, the
// file's .amdgcn_target.
func (a *assembler) setTarget() error {
	id, line, col := a.opts.Target, -1, 0
	if id == "" {
		for i, l := range a.lines {
			if m := targetRe.FindStringSubmatchIndex(l); m != nil {
				id, line, col = l[m[2]:m[3]], i, m[2]
				break
			}
		}
	}
	if id == "" {
		return fmt.Errorf("%s: no target: give one (--target gfx900) or write .amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"", a.file)
	}
	t, err := targetOf(id)
	if err != nil {
		if line >= 0 {
			a.addErr(line, col, err.Error())
			return a.errs
		}
		return err
	}
	a.tgt = t
	return nil
}

// targetOf parses a processor or target ID.
func targetOf(id string) (targetInfo, error) {
	lt, err := loader.ParseTargetID(strings.TrimPrefix(id, "amdgcn-amd-amdhsa--"))
	if err != nil {
		return targetInfo{}, err
	}
	gen, ok := isa.TargetOf(lt.Processor)
	if !ok {
		return targetInfo{}, fmt.Errorf("target %q: %v", id, isa.CheckSupported(lt.Processor))
	}
	t := targetInfo{proc: lt.Processor, gen: gen, feat: isa.FeaturesOf(lt.Processor), mach: lt.Mach,
		xnack: lt.XNACK, sramecc: lt.SRAMECC}
	t.id = "amdgcn-amd-amdhsa--" + t.proc
	if !srameccProcs[t.proc] {
		if t.sramecc != loader.FeatureAny {
			return t, fmt.Errorf("target %q: %s has no sramecc", id, t.proc)
		}
		t.sramecc = loader.FeatureUnsupported
	} else if t.sramecc != loader.FeatureAny {
		t.id += ":sramecc" + sign(t.sramecc)
	}
	if !xnackProcs[t.proc] {
		if t.xnack != loader.FeatureAny {
			return t, fmt.Errorf("target %q: %s has no xnack", id, t.proc)
		}
		t.xnack = loader.FeatureUnsupported
	} else if t.xnack != loader.FeatureAny {
		t.id += ":xnack" + sign(t.xnack)
	}
	return t, nil
}

func sign(f loader.Feature) string {
	if f == loader.FeatureOn {
		return "+"
	}
	return "-"
}

// eFlags is the ELF header's e_flags for code object v4 and later.
func (t targetInfo) eFlags() uint32 {
	f := uint32(t.mach)
	f |= map[loader.Feature]uint32{loader.FeatureAny: 0x100, loader.FeatureOff: 0x200, loader.FeatureOn: 0x300}[t.xnack]
	f |= map[loader.Feature]uint32{loader.FeatureAny: 0x400, loader.FeatureOff: 0x800, loader.FeatureOn: 0xc00}[t.sramecc]
	return f
}

// xnackEnabled is LLVM's isXNACKEnabled: xnack on or any.
func (t targetInfo) xnackEnabled() bool {
	return t.xnack == loader.FeatureAny || t.xnack == loader.FeatureOn
}
