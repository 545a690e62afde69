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
//     predict.go and explain.go render emu.Machine.Preview (addresses,
//     range rules, lines, s_waitcnt fields, branch targets): the debugger
//     computes none of them, so the decoder shows what the step will do.
//
// Decisions that are not obvious from the code:
//
//   - The model sees the emulator only through Debuggee, so a front end test
//     needs no code object and emu can change behind the adapter.
//   - open.go dispatches through package emu (emu.OpenSession), which lays
//     the launch out by the ABI, runs the work-groups before the chosen
//     wave's and hands over a session over that work-group, every wave at
//     the top; LDS is memory at emu.SharedApertureBase. The session is
//     Delve's split: emu runs the waves, keeps s_barrier honest (before a
//     wave passes a barrier it runs the others there on the fast engine),
//     evaluates breakpoints (their conditions are tui's evaluator handed
//     over as emu.Cond) and watchpoints, and records the whole work-group,
//     so that every reverse move rewinds every wave; EmuDebuggee only
//     renders it.
//   - The waves pane lists the whole grid in dispatch order (up to 4096
//     waves). One work-group is loaded at a time: selecting a wave of
//     another group prepares it afresh (a new emu.OpenSession dispatch, so
//     the groups before it have run to completion and its own start at the
//     entry); the groups before it show "done", those after "not run".
//     Breakpoints and watchpoints live in the Model and survive the switch.
//   - The ':' line is Bubbles' textinput (cmdline.go) with command-name
//     completion and a history.
//   - picker.go: the sample picker (App) that `wavedbg` opens with no
//     argument; it draws its own list because bubbles' list imports
//     github.com/sahilm/fuzzy, which go.mod lacks.
//   - Disassembly, VGPRs, memory and waves render only their visible window, as
//     their content is unbounded; the other panes scroll with bubbles'
//     viewport.
//   - Widths are measured with cellWidth, an ANSI-aware counter several
//     times faster than grapheme segmentation (checked against
//     ansi.StringWidth), which keeps a 200×60 step+redraw near 1 ms.
package tui
