package emu

// ds_condxchg32_rtn_b64: two conditional 32-bit exchanges.
//
// Reading of the manuals. The GCN3 (GFX8) and Vega (GFX9) ISA manuals name
// the opcode (DS 126) and say only "conditional write exchange"; the later
// GFX9-family manuals (CDNA3, CDNA4, DS_CONDXCHG32_RTN_B64, opcode 126)
// give pseudocode, which the emulator follows per lane, lanes in ascending
// order:
//
//	ADDR0 = (ADDR + {OFFSET1, OFFSET0}) & 0xfff8;  ADDR1 = ADDR0 + 4
//	RETURN_DATA[0] = LDS[ADDR0];  if DATA[31] { LDS[ADDR0] = {0, DATA[30:0]} }
//	RETURN_DATA[1] = LDS[ADDR1];  if DATA[63] { LDS[ADDR1] = {0, DATA[62:32]} }
//
// DATA is the 64-bit data0 pair; both dwords are returned to the VDST pair
// whether or not they were written, and the written value has bit 31 clear
// (the flag bit is not stored). Rulings where the pseudocode is silent:
//   - the address is masked to 16 bits and 8-byte aligned as written
//     (0xfff8), before the range check, so it never faults or wraps past
//     64 KiB;
//   - each dword is its own access, range-checked against the work-group's
//     LDS size (and, on GFX8, M0) like every DS access: out of range it
//     returns 0 and is not written, independently of the other dword;
//   - the step record lists the two dwords as two 4-byte lane addresses;
//     it raises LGKM_CNT by one, like every LDS operation; with GDS set it
//     stops the wave like other GDS operations.
//
// vmem_op.go compiles the operation (isa.AtomCondXchg) to an 8-byte DS
// atomic with a return whose atom is atCondXchg32; execDS routes it here.

import "encoding/binary"

// atCondXchg32 is ds_condxchg32_rtn_b64's atomic kind: a value outside
// vmem_op.go's iota list, so that additions there cannot collide with it.
const atCondXchg32 = 0x100

// condXchg32 executes ds_condxchg32_rtn_b64 for one lane; note records each
// dword's access (step records, bank conflicts).
func (u *vmemUnit) condXchg32(w *Wave, o *vmOp, lane int, lim uint32, res *vmResult, note func(lane int, a uint32, size int, ok bool)) {
	a0 := condXchgAddr(w, o, lane)
	data := u.dsData(w, o.ds.data0, lane, 8)
	for k := 0; k < 2; k++ {
		a := a0 + 4*uint32(k)
		var b [4]byte
		ok := u.ldsRead(w, a, b[:], lim)
		note(lane, a, 4, ok)
		if res != nil {
			res.data[k][lane] = binary.LittleEndian.Uint32(b[:])
		}
		if x := uint32(data >> (32 * k)); ok && x&0x80000000 != 0 {
			binary.LittleEndian.PutUint32(b[:], x&0x7fffffff)
			u.ldsWrite(w, a, b[:], lim, 1)
		}
	}
}

// condXchgAddr is the address of a lane's first dword: (ADDR + offset) &
// 0xfff8; the second is 4 bytes on.
func condXchgAddr(w *Wave, o *vmOp, lane int) uint32 {
	return (w.v[o.vaddr][lane] + uint32(o.offset)) & 0xfff8
}
