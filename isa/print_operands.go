package isa

// OperandTexts returns the instruction's text, as AppendText prints it for
// an instruction at byte address pc, cut at its operand separators: head
// (the text before the first operand: the mnemonic as printed, and for
// exp its target) and each operand's text, appended to dst.
// Modifiers printed after an operand without a separator (offset:16, glc)
// stay in that operand's text, so head + " " + strings.Join(ops, ", ") is
// the printed line, or head alone when ops is empty.
func (i *Inst) OperandTexts(dst []string, pc uint64, sym Symbolizer) (head string, ops []string) {
	if int(i.Enc) >= len(printers) || printers[i.Enc] == nil || i.Form == nil {
		return "<invalid>", dst
	}
	var cuts [8]int
	p := &printer{pc: pc, sym: sym, t: i.Target, cuts: cuts[:0]}
	printers[i.Enc](p, i)
	text := string(p.buf)
	if len(p.cuts) == 0 {
		return text, dst
	}
	head = text[:p.cuts[0]]
	for k, c := range p.cuts {
		end := len(text)
		if k+1 < len(p.cuts) {
			end = p.cuts[k+1]
		}
		start := c + 2 // ", "
		if k == 0 {
			start = c + 1 // " "
		}
		ops = append(dst, text[start:end])
		dst = ops
	}
	return head, dst
}
