// Package ref is the reference engine: every instruction's meaning,
// written once, per lane, next to the ISA manual's description, and able
// to record every effect of a step. A journaled step (the debugger's step)
// always runs these forms; the fast engine falls back to them for any
// shape it has no form for.
//
// Files by what they execute:
//
//	sop1, sop2, sopc_sopk, sopp, sop_forkjoin    scalar ALU and program control
//	smem, smem_ops, smem_atomic                  SMEM loads, stores, atomics, cache control
//	valu, valu_ops, valu_defs*, valu_<kind>      VOP1/VOP2/VOP3/VOPC/VOP3P by kind of operation
//	vmem_op, vmem_unit, vmem_lane, vmem_issue    MUBUF/MTBUF/FLAT: decoding, issue, per-lane access
//	vmem_buffer, vmem_format, vmem_atomic        V# address computation, data formats, atomics
//	ds_exec, ds_condxchg                         LDS
//	preview*, record                             the next instruction's effect and its recorded addresses
//	ops                                          the operation table (opTable) compile reads
//
// s_waitcnt's wait and the counters are core's (counters.go).
package ref
