package tui

import (
	"context"

	"github.com/wavedbg/wavedbg/emu"
)

// This file opens another wave of an EmuDebuggee's grid in the background:
// a wave of another work-group means a fresh dispatch that runs every
// work-group before it, which can take long (opening.go shows it).

// prepareFunc dispatches afresh up to wave n's work-group, stopped by ctx,
// telling progress (when set) how the work-groups before it run.
type prepareFunc func(ctx context.Context, n uint64, progress func(emu.GridProgress)) (*EmuDebuggee, error)

// waveOpener is a Debuggee whose waves of other work-groups open in the
// background (the Model checks for it).
type waveOpener interface {
	// NeedsOpen reports whether selecting wave i needs OpenWave.
	NeedsOpen(i int) bool
	// OpenWave prepares wave i (see NeedsOpen) and returns a Debuggee
	// that has it selected; it may run on any goroutine and must not
	// change the receiver. progress is as emu.GridConfig.Progress.
	OpenWave(ctx context.Context, i int, progress func(emu.GridProgress)) (Debuggee, error)
	// Adopt makes the receiver the Debuggee OpenWave returned.
	Adopt(Debuggee)
}

// NeedsOpen reports whether wave i is in another work-group than the
// loaded one.
func (d *EmuDebuggee) NeedsOpen(i int) bool {
	return (i < d.first || i >= d.first+len(d.waves)) && i >= 0 && i < d.WaveCount() && d.relaunch != nil
}

// OpenWave dispatches afresh up to wave i's work-group.
func (d *EmuDebuggee) OpenWave(ctx context.Context, i int, progress func(emu.GridProgress)) (Debuggee, error) {
	return d.relaunch(ctx, uint64(i), progress)
}

// Adopt replaces d by nd, an *EmuDebuggee OpenWave returned.
func (d *EmuDebuggee) Adopt(nd Debuggee) { *d = *nd.(*EmuDebuggee) }
