package asm

import "fmt"

// generatedMetadata is the metadata of a file with kernels but no
// .amdgpu_metadata: the kernels' descriptor facts, and arguments read off
// .amdhsa_kernarg_size: each 8 bytes a global buffer pointer (arg0,
// arg1, …), a last 4 bytes a by-value word.
func (a *assembler) generatedMetadata(version int) *node {
	ks := &node{kind: kSeq}
	for _, k := range a.kernels {
		kn := &node{kind: kMap}
		kn.set(".name", strNode(k.name))
		kn.set(".symbol", strNode(k.name+".kd"))
		kn.set(".kernarg_segment_size", uintNode(uint64(k.kernarg)))
		kn.set(".kernarg_segment_align", uintNode(8))
		kn.set(".group_segment_fixed_size", uintNode(uint64(k.group)))
		kn.set(".private_segment_fixed_size", uintNode(uint64(k.private)))
		kn.set(".wavefront_size", uintNode(uint64(k.wavefront)))
		kn.set(".sgpr_count", uintNode(uint64(k.nextSGPR)))
		kn.set(".vgpr_count", uintNode(uint64(k.nextVGPR)))
		kn.set(".max_flat_workgroup_size", uintNode(256))
		if version >= 5 {
			kn.set(".uses_dynamic_stack", &node{kind: kBool, b: k.dynStack})
		}
		args := &node{kind: kSeq}
		off := uint32(0)
		for i := 0; off < k.kernarg; i++ {
			arg := &node{kind: kMap}
			arg.set(".name", strNode(fmt.Sprintf("arg%d", i)))
			arg.set(".offset", uintNode(uint64(off)))
			if k.kernarg-off >= 8 {
				arg.set(".size", uintNode(8))
				arg.set(".value_kind", strNode("global_buffer"))
				arg.set(".address_space", strNode("global"))
				off += 8
			} else {
				n := k.kernarg - off
				arg.set(".size", uintNode(uint64(n)))
				arg.set(".value_kind", strNode("by_value"))
				off += n
			}
			args.seq = append(args.seq, arg)
		}
		kn.set(".args", args)
		ks.seq = append(ks.seq, kn)
	}
	doc := &node{kind: kMap}
	doc.set("amdhsa.version", &node{kind: kSeq, seq: []*node{uintNode(1), uintNode(uint64(version - 3))}})
	doc.set("amdhsa.target", strNode(a.tgt.id))
	doc.set("amdhsa.kernels", ks)
	return doc
}
