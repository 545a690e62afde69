package loader

import "strings"

// Family names a processor's architecture ("gfx90a" → "CDNA 2"), or ""
// when it is not known.
func Family(proc string) string {
	if m, ok := MachByName(proc); ok && m.preGCN() {
		return "TeraScale"
	}
	if g, ok := strings.CutSuffix(proc, "-generic"); ok {
		return "generic " + strings.ToUpper(strings.ReplaceAll(g, "-", "."))
	}
	switch {
	case proc == "gfx908":
		return "CDNA"
	case proc == "gfx90a":
		return "CDNA 2"
	case strings.HasPrefix(proc, "gfx94"):
		return "CDNA 3"
	case proc == "gfx950":
		return "CDNA 4"
	case strings.HasPrefix(proc, "gfx101"):
		return "RDNA"
	case strings.HasPrefix(proc, "gfx103"):
		return "RDNA 2"
	case strings.HasPrefix(proc, "gfx115"):
		return "RDNA 3.5"
	case strings.HasPrefix(proc, "gfx11"):
		return "RDNA 3"
	case strings.HasPrefix(proc, "gfx12"):
		return "RDNA 4"
	}
	switch GFXMajor(proc) {
	case 6:
		return "GCN 1"
	case 7:
		return "GCN 2"
	case 8:
		return "GCN 3"
	case 9:
		return "GCN 5"
	}
	return ""
}
