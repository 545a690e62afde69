package emu

// execMovFast is v_mov_b32 on the fast path (the commonest VALU
// instruction; kernelFn picks it where runKernel would run the copy
// kernel): with EXEC a prefix it copies the source's live lanes straight
// into the destination, else wv writes the EXEC lanes from the source, so
// neither goes through a scratch row or runKernel's set-up.
func execMovFast(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	src := w.srcRow(in, 0)
	if src == nil {
		src = w.src32(in, 0, &w.tmp[0])
	}
	mask := w.exec()
	r := int(in.dst[0].reg)
	n := liveLanes(mask)
	if d := w.dstLanes(r, mask, n, nil); d != nil {
		copy(d[:n], src[:n])
		return nil
	}
	w.wv(r, mask, src)
	return nil
}
