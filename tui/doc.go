// Package tui is wavedbg's interactive debugger: a Bubble Tea program whose
// panes show the state of one emulated wave (disassembly, registers, counters,
// scalar cache, decoded addresses, memory) and whose keys step it both ways.
//
// Layout of the package, following soft-serve and gh-dash:
//
//   - app.go: the Model (focus, layout, help, command line, status) and
//     Render, which draws the whole screen from the current Frame.
//   - panes.go: the Common struct every pane embeds and the component
//     interface; one small type per pane.
//   - render.go: pure rendering helpers, one per pane, fed by the view-model
//     structs of viewmodel.go; tested with colour off (render_test.go).
//   - layout.go: the layout tiers (one pane; disassembly + one; six slots;
//     every pane) chosen by the terminal size.
//   - keys.go, commands.go: the key map and the ':' command table, which
//     generate the help overlay and KEYS.md.
//   - styles.go: every Lip Gloss style, built once for full colour, NO_COLOR
//     (attributes only) or plain (tests).
//   - lexer.go: the Chroma lexer for GCN assembly.
//   - run.go: stepping, breakpoints with register conditions, watchpoints,
//     and continue / reverse-continue / step N / run to cursor in 25 ms
//     chunks, so the screen shows progress and Ctrl-C stops a run.
//   - debuggee.go: the narrow Debuggee interface the model drives;
//     emudebuggee.go, fill.go, addrexplain.go and open.go adapt package emu
//     to it (a fake in fake_test.go drives the layout and control tests).
//
// Decisions that are not obvious from the code:
//
//   - The model sees the emulator only through Debuggee, so a front end test
//     needs no code object and emu can change behind the adapter.
//   - open.go has its own minimal launcher (kernel-argument pointer,
//     work-group id, v0 work-item ids, one emu.Machine per wave over shared
//     memory) because package emu's grid dispatcher runs waves headless and
//     does not hand out Machines; vector memory instructions need emu's
//     vector memory unit, which is private to that dispatcher for now.
//   - The ':' line is a small hand-written editor (lineinput.go): bubbles'
//     textinput imports github.com/atotto/clipboard, which go.mod lacks.
//   - Disassembly, VGPRs and memory render only their visible window, as
//     their content is unbounded; the other panes scroll with bubbles'
//     viewport.
//   - Widths are measured with cellWidth, an ANSI-aware counter several
//     times faster than grapheme segmentation (checked against
//     ansi.StringWidth), which keeps a 200×60 step+redraw near 1 ms.
package tui
