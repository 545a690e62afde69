package ref

import (
	"encoding/binary"
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// AtCondXchg32 is ds_condxchg32_rtn_b64's atomic kind: a value outside
// vmem_op.go's iota list, so that additions there cannot collide with it.
const AtCondXchg32 = 0x100

// condXchg32 executes ds_condxchg32_rtn_b64 for one lane; note records each
// dword's access (step records, bank conflicts).
func (u *VMemUnit) condXchg32(w *core.Wave, o *VmOp, lane int, lim uint32, res *VmResult, note func(lane int, a uint32, size int, ok bool)) {
	a0 := condXchgAddr(w, o, lane)
	data := u.DsData(w, o.Ds.Data0, lane, 8)
	for k := 0; k < 2; k++ {
		a := a0 + 4*uint32(k)
		var b [4]byte
		ok := u.LdsRead(w, a, b[:], lim)
		note(lane, a, 4, ok)
		if res != nil {
			res.Data[k][lane] = binary.LittleEndian.Uint32(b[:])
		}
		if x := uint32(data >> (32 * k)); ok && x&0x80000000 != 0 {
			binary.LittleEndian.PutUint32(b[:], x&0x7fffffff)
			u.LdsWrite(w, a, b[:], lim, 1)
		}
	}
}

// condXchgAddr is the address of a lane's first dword: (ADDR + offset) &
// 0xfff8; the second is 4 bytes on.
func condXchgAddr(w *core.Wave, o *VmOp, lane int) uint32 {
	return (w.V[o.Vaddr][lane] + uint32(o.Offset)) & 0xfff8
}
