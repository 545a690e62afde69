package loader

import (
	"fmt"
	"strings"
	"testing"
)

func regs(uses []RegUse, prefix string) string {
	var s []string
	for _, u := range uses {
		r := fmt.Sprintf("%s%d", prefix, u.First)
		if u.Count > 1 {
			r = fmt.Sprintf("%s[%d:%d]", prefix, u.First, u.First+u.Count-1)
		}
		s = append(s, r+"="+u.Name)
	}
	return strings.Join(s, "; ")
}

// TestInitialState checks the initial register layout of committed
// kernels against AMDGPUUsage's order (user SGPRs, then system SGPRs) and
// against the registers their code uses (llvm-objdump-19 -d): v4 vadd
// reads the work-group size through the dispatch pointer s[4:5], its
// arguments through s[6:7] and multiplies the work-group id in s8; v5 reads
// both from the kernarg pointer in s[4:5]; scratch adds s11 to the private
// segment buffer base in s0.
func TestInitialState(t *testing.T) {
	tests := []struct {
		file, kernel, sgprs, vgprs string
	}{
		{"vadd-gfx900-v4.co", "vadd", "s[0:3]=Private Segment Buffer; s[4:5]=Dispatch Ptr; s[6:7]=Kernarg Segment Ptr; s8=Work-Group Id X", "v0=Work-Item Id X"},
		{"vadd-gfx900-v5.co", "vadd", "s[0:3]=Private Segment Buffer; s[4:5]=Kernarg Segment Ptr; s6=Work-Group Id X", "v0=Work-Item Id X"},
		{"vadd-gfx900-v2.co", "vadd", "s[0:3]=Private Segment Buffer; s[4:5]=Dispatch Ptr; s[6:7]=Kernarg Segment Ptr; s8=Work-Group Id X", "v0=Work-Item Id X"},
		{"vadd-gfx90a-v5.co", "vadd", "s[0:3]=Private Segment Buffer; s[4:5]=Kernarg Segment Ptr; s6=Work-Group Id X", "v0=Work-Item Id X"},
		{"lds_scratch-gfx900-v4.co", "scratch", "s[0:3]=Private Segment Buffer; s[4:5]=Dispatch Ptr; s[6:7]=Kernarg Segment Ptr; s[8:9]=Flat Scratch Init; s10=Work-Group Id X; s11=Scratch Wavefront Offset", "v0=Work-Item Id X"},
	}
	for _, tt := range tests {
		co, err := Load("testdata/co/"+tt.file, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		k := co.Kernel(tt.kernel)
		if got := regs(k.InitialSGPRs(), "s"); got != tt.sgprs {
			t.Errorf("%s %s: SGPRs %s, want %s", tt.file, tt.kernel, got, tt.sgprs)
		}
		if got := regs(k.InitialVGPRs(co.Target.Processor), "v"); got != tt.vgprs {
			t.Errorf("%s %s: VGPRs %s, want %s", tt.file, tt.kernel, got, tt.vgprs)
		}
		co.Close()
	}
	var r2 ComputePgmRsrc2
	r2.EnableVGPRWorkitemID = 2
	if got := regs(InitialVGPRs(r2, "gfx90a"), "v"); got != "v0=Work-Item Id X, Y, Z" {
		t.Errorf("gfx90a packed IDs: %s", got)
	}
	if got := regs(InitialVGPRs(r2, "gfx803"), "v"); got != "v0=Work-Item Id X; v1=Work-Item Id Y; v2=Work-Item Id Z" {
		t.Errorf("gfx803 IDs: %s", got)
	}
}
