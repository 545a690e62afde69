package emu

// Reset returns the machine to the state NewMachine gives it — every
// register zero, EXEC all ones, the PC at the program's start, an empty
// scalar cache, in-flight list and history — keeping its allocations,
// configuration, memory, breakpoints and VectorMemory. A grid run reuses one
// Machine per wave slot this way instead of allocating one per wave.
func (m *Machine) Reset() {
	w := m.w
	pend, lines, j := w.pend[:0], w.cache.lines, w.j
	clear(lines)
	j.reset()
	sets, ways := w.cache.sets, w.cache.ways
	*w = Wave{m: m, target: m.Config.Target, code: m.Prog.code, pend: pend, j: j}
	w.cache = scalarCache{sets: sets, ways: ways, lines: lines}
	w.s[codeExec], w.s[codeExec+1] = ^uint32(0), ^uint32(0)
	w.s[slotMode] = m.Config.Mode
	w.s[slotGPRAlloc] = 0x3f00
	m.hist.clear()
	m.last = m.last[:0]
}
