package asm

import (
	"fmt"
	"strings"
)

// verifyMetadata checks a metadata document as LLVM's strict
// MetadataVerifier does before llvm-mc writes the note: the required
// entries, and the types (and for some strings the values) of the known
// ones. Unknown entries pass. The error says which entry fails.
func verifyMetadata(root *node) error {
	if root.kind != kMap {
		return fmt.Errorf("the document is not a map")
	}
	if err := entry(root, "amdhsa.version", true, intArray(2)); err != nil {
		return err
	}
	if err := entry(root, "amdhsa.printf", false, array(-1, isKind(kStr))); err != nil {
		return err
	}
	return entry(root, "amdhsa.kernels", true, array(-1, verifyKernel))
}

// check verifies one node.
type check func(*node) error

// entry checks key of map m with c; a missing required key fails.
func entry(m *node, key string, required bool, c check) error {
	v := m.get(key)
	if v == nil {
		if required {
			return fmt.Errorf("%s is missing", key)
		}
		return nil
	}
	if err := c(v); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

func isKind(k nodeKind) check {
	return func(n *node) error {
		if n.kind != k && !(k == kUint && n.kind == kInt) {
			return fmt.Errorf("want %s, have %s", kindName(k), kindName(n.kind))
		}
		return nil
	}
}

// oneOf accepts a string from values.
func oneOf(values ...string) check {
	return func(n *node) error {
		if n.kind != kStr {
			return fmt.Errorf("want a string, have %s", kindName(n.kind))
		}
		for _, v := range values {
			if n.s == v {
				return nil
			}
		}
		return fmt.Errorf("%q is not one of %s", n.s, strings.Join(values, ", "))
	}
}

// array accepts a sequence of size entries (any size when negative), each
// passing c.
func array(size int, c check) check {
	return func(n *node) error {
		if n.kind != kSeq {
			return fmt.Errorf("want a sequence, have %s", kindName(n.kind))
		}
		if size >= 0 && len(n.seq) != size {
			return fmt.Errorf("want %d entries, have %d", size, len(n.seq))
		}
		for i, e := range n.seq {
			if err := c(e); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return nil
	}
}

func intArray(size int) check { return array(size, isKind(kUint)) }

func kindName(k nodeKind) string {
	return [...]string{"an integer", "an integer", "null", "a boolean", "a float", "a string", "binary", "a sequence", "a map"}[k]
}

// fields checks the entries of a map: name → required, check.
type field struct {
	name     string
	required bool
	c        check
}

func verifyFields(fs []field) check {
	return func(n *node) error {
		if n.kind != kMap {
			return fmt.Errorf("want a map, have %s", kindName(n.kind))
		}
		for _, f := range fs {
			if err := entry(n, f.name, f.required, f.c); err != nil {
				return err
			}
		}
		return nil
	}
}

var (
	str, integer, boolean = isKind(kStr), isKind(kUint), isKind(kBool)

	verifyArg = verifyFields([]field{
		{".name", false, str}, {".type_name", false, str},
		{".size", true, integer}, {".offset", true, integer},
		{".value_kind", true, oneOf("by_value", "global_buffer", "dynamic_shared_pointer", "sampler", "image", "pipe", "queue",
			"hidden_global_offset_x", "hidden_global_offset_y", "hidden_global_offset_z", "hidden_none",
			"hidden_printf_buffer", "hidden_hostcall_buffer", "hidden_default_queue", "hidden_completion_action",
			"hidden_multigrid_sync_arg", "hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z",
			"hidden_group_size_x", "hidden_group_size_y", "hidden_group_size_z", "hidden_remainder_x",
			"hidden_remainder_y", "hidden_remainder_z", "hidden_grid_dims", "hidden_heap_v1",
			"hidden_dynamic_lds_size", "hidden_private_base", "hidden_shared_base", "hidden_queue_ptr")},
		{".pointee_align", false, integer},
		{".address_space", false, oneOf("private", "global", "constant", "local", "generic", "region")},
		{".access", false, oneOf("read_only", "write_only", "read_write")},
		{".actual_access", false, oneOf("read_only", "write_only", "read_write")},
		{".is_const", false, boolean}, {".is_restrict", false, boolean},
		{".is_volatile", false, boolean}, {".is_pipe", false, boolean},
	})

	verifyKernel = verifyFields([]field{
		{".name", true, str}, {".symbol", true, str},
		{".language", false, oneOf("OpenCL C", "OpenCL C++", "HCC", "HIP", "OpenMP", "Assembler")},
		{".language_version", false, intArray(2)},
		{".args", false, array(-1, verifyArg)},
		{".reqd_workgroup_size", false, intArray(3)},
		{".workgroup_size_hint", false, intArray(3)},
		{".vec_type_hint", false, str},
		{".device_enqueue_symbol", false, str},
		{".kernarg_segment_size", true, integer},
		{".group_segment_fixed_size", true, integer},
		{".private_segment_fixed_size", true, integer},
		{".uses_dynamic_stack", false, boolean},
		{".workgroup_processor_mode", false, boolean},
		{".kernarg_segment_align", true, integer},
		{".wavefront_size", true, integer},
		{".sgpr_count", true, integer},
		{".vgpr_count", true, integer},
		{".max_flat_workgroup_size", true, integer},
		{".sgpr_spill_count", false, integer},
		{".vgpr_spill_count", false, integer},
		{".uniform_work_group_size", false, integer},
	})
)
