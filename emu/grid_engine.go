package emu

import (
	"fmt"
)

// Engine chooses how a grid run executes its waves' instructions.
type Engine uint8

const (
	// EngineFast runs waves with Machine.Run: unjournaled, each instruction
	// through its fast form where it has one (unless Config.HistoryBytes
	// is set: Run then journals every step to keep history, as
	// EngineReference does).
	EngineFast Engine = iota
	// EngineReference executes every instruction of every wave as Step
	// does, journaled, through its reference form (without building step
	// records or keeping history), with the same scheduling and barriers.
	// It is slower; its results must equal EngineFast's.
	EngineReference
)

// Engines lists the engines in the order of their values.
var Engines = []Engine{EngineFast, EngineReference}

func (e Engine) String() string {
	switch e {
	case EngineFast:
		return "fast"
	case EngineReference:
		return "reference"
	}
	return fmt.Sprintf("Engine(%d)", uint8(e))
}

// ParseEngine returns the engine named s ("fast" or "reference").
func ParseEngine(s string) (Engine, error) {
	for _, e := range Engines {
		if s == e.String() {
			return e, nil
		}
	}
	return 0, fmt.Errorf("unknown engine %q (want fast or reference)", s)
}

// waveEnd passes the waves of a work-group that stopped to
// GridConfig.WaveEnd.
func (wk *groupWorker) waveEnd(waves []*groupWave) {
	if f := wk.g.cfg.WaveEnd; f != nil {
		for _, gw := range waves {
			f(gw.no, gw.m)
		}
	}
}
