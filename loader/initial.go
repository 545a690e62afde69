package loader

// RegUse is one value the hardware or packet processor places in registers
// when a wave starts (AMDGPUUsage "Initial Kernel Execution State").
type RegUse struct {
	Name   string // AMDGPUUsage's name, e.g. "Kernarg Segment Ptr"
	First  int    // first register (s0 / v0 = 0)
	Count  int    // registers used
	Packed bool   `json:",omitempty"` // work-item IDs packed into v0 (10 bits each)
}

// InitialSGPRs lists the SGPRs a wave starts with, in order: the user
// SGPRs enabled by kernel_code_properties (and preloaded kernarg SGPRs),
// then the system SGPRs enabled by COMPUTE_PGM_RSRC2.
func (kd *KernelDescriptor) InitialSGPRs() []RegUse {
	return initialSGPRs(kd.Properties.EnableSGPRPrivateSegmentBuffer, kd.Properties.EnableSGPRDispatchPtr,
		kd.Properties.EnableSGPRQueuePtr, kd.Properties.EnableSGPRKernargSegmentPtr,
		kd.Properties.EnableSGPRDispatchID, kd.Properties.EnableSGPRFlatScratchInit,
		kd.Properties.EnableSGPRPrivateSegmentSize, int(kd.KernargPreloadSpecLength), int(kd.Rsrc2.UserSGPRCount), kd.Rsrc2)
}

// InitialSGPRs lists the SGPRs a v2 wave starts with.
func (c *AMDKernelCode) InitialSGPRs() []RegUse {
	p := c.Properties
	return initialSGPRs(p.EnableSGPRPrivateSegmentBuffer, p.EnableSGPRDispatchPtr, p.EnableSGPRQueuePtr,
		p.EnableSGPRKernargSegmentPtr, p.EnableSGPRDispatchID, p.EnableSGPRFlatScratchInit,
		p.EnableSGPRPrivateSegmentSize, 0, int(c.Rsrc2.UserSGPRCount), c.Rsrc2)
}

func initialSGPRs(buffer, dispatch, queue, kernarg, dispatchID, flatScratch, privSize bool, preload, userCount int, r2 ComputePgmRsrc2) []RegUse {
	var out []RegUse
	n := 0
	add := func(on bool, name string, count int) {
		if on && count > 0 {
			out = append(out, RegUse{Name: name, First: n, Count: count})
			n += count
		}
	}
	add(buffer, "Private Segment Buffer", 4)
	add(dispatch, "Dispatch Ptr", 2)
	add(queue, "Queue Ptr", 2)
	add(kernarg, "Kernarg Segment Ptr", 2)
	add(dispatchID, "Dispatch Id", 2)
	add(flatScratch, "Flat Scratch Init", 2)
	add(privSize, "Private Segment Size", 1)
	add(preload > 0, "Preloaded Kernargs", preload)
	// System SGPRs follow the USER_SGPR_COUNT user SGPRs, which may
	// exceed the ones enabled above (v2's grid work-group counts, for one).
	if userCount > n {
		n = userCount
	}
	add(r2.EnableSGPRWorkgroupIDX, "Work-Group Id X", 1)
	add(r2.EnableSGPRWorkgroupIDY, "Work-Group Id Y", 1)
	add(r2.EnableSGPRWorkgroupIDZ, "Work-Group Id Z", 1)
	add(r2.EnableSGPRWorkgroupInfo, "Work-Group Info", 1)
	add(r2.EnablePrivateSegment, "Scratch Wavefront Offset", 1)
	return out
}

// InitialVGPRs lists the VGPRs a wave starts with: the work-item IDs
// enabled by ENABLE_VGPR_WORKITEM_ID (0: X, 1: X and Y, 2: X, Y and Z).
// GFX90A, GFX940 and GFX11+ pack them into v0, 10 bits each.
func InitialVGPRs(r2 ComputePgmRsrc2, proc string) []RegUse {
	dims := int(r2.EnableVGPRWorkitemID) + 1
	if dims > 3 {
		dims = 3
	}
	if hasAccumOffset(proc) || GFXMajor(proc) >= 11 {
		name := [...]string{"Work-Item Id X", "Work-Item Id X, Y", "Work-Item Id X, Y, Z"}[dims-1]
		return []RegUse{{Name: name, First: 0, Count: 1, Packed: true}}
	}
	names := []string{"Work-Item Id X", "Work-Item Id Y", "Work-Item Id Z"}
	var out []RegUse
	for i := 0; i < dims; i++ {
		out = append(out, RegUse{Name: names[i], First: i, Count: 1})
	}
	return out
}
