package emu

// execMovRow is execMovFast's general case: execVOP with GPR indexing on,
// else a masked write of the source's row (a VGPR or a special scalar).
func execMovRow(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	mask := w.exec()
	src := w.srcLanes(in, 0, &w.tmp[0], liveLanes(mask))
	w.wv(int(in.dst[0].reg), mask, src)
	return nil
}
