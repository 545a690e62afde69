package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
)

// runSummary is what run --json prints: the "run-summary" document of
// doc/wavedbg.schema.json.
type runSummary struct {
	Schema         string      `json:"schema"`
	Type           string      `json:"type"`   // "run-summary"
	Status         string      `json:"status"` // "ok", "faulted" or "interrupted"
	File           string      `json:"file"`
	Kernel         string      `json:"kernel"`
	Grid           []uint64    `json:"grid"`
	Block          []uint64    `json:"block"`
	Offset         []uint64    `json:"offset,omitempty"`
	WorkGroups     uint64      `json:"work_groups"`
	Waves          uint64      `json:"waves"`
	Instructions   uint64      `json:"instructions"`
	Cycles         uint64      `json:"cycles"`      // the longest wave's clock
	WaveCycles     uint64      `json:"wave_cycles"` // summed over waves
	ElapsedSeconds float64     `json:"elapsed_seconds"`
	Faults         []runFault  `json:"faults"`
	Outputs        []runOutput `json:"outputs"`
}

// runFault is a wave that stopped on a fault or an execution error.
type runFault struct {
	Wave        uint64          `json:"wave"` // in dispatch order
	WorkGroup   [3]uint32       `json:"work_group"`
	WaveInGroup int             `json:"wave_in_group"`
	PC          string          `json:"pc"`
	Message     string          `json:"message"`
	Memory      *runMemoryFault `json:"memory,omitempty"` // set for memory violations
}

// runMemoryFault details a memory violation.
type runMemoryFault struct {
	Lane   int    `json:"lane"` // -1 for a scalar access
	Addr   string `json:"addr"`
	Size   int    `json:"size"`
	Access string `json:"access"` // "read" or "write"
	Reason string `json:"reason"`
}

// runOutput is a file the run wrote.
type runOutput struct {
	Kind  string `json:"kind"`          // "buffer", "manifest", "cpu-profile" or "go-trace"
	Arg   *int   `json:"arg,omitempty"` // the kernel argument, for buffers
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
}

// dimList is a launch dimension as the schema writes it, nil when unset.
func dimList(d manifest.Dim) []uint64 {
	if d.Dims == 0 {
		return nil
	}
	return append([]uint64(nil), d.V[:d.Dims]...)
}

// newRunSummary describes a completed launch; its outputs are added once
// written.
func newRunSummary(cfg *runConfig, res *runResult, status string) *runSummary {
	s := &runSummary{Schema: jsonSchema, Type: "run-summary", Status: status, File: cfg.file, Kernel: cfg.m.Kernel,
		Grid: dimList(cfg.m.Grid), Block: dimList(cfg.m.Block), Offset: dimList(cfg.m.Offset),
		WorkGroups: res.WorkGroups, Waves: res.Waves, Instructions: res.Instructions,
		Cycles: res.Cycles, WaveCycles: res.WaveCycles, ElapsedSeconds: res.Elapsed.Seconds(),
		Faults: []runFault{}, Outputs: []runOutput{}}
	for _, f := range res.WaveFaults {
		rf := runFault{Wave: f.Wave, WorkGroup: f.Group, WaveInGroup: f.Index, PC: hexAddr(f.PC), Message: f.Error()}
		if mf, ok := errors.AsType[*emu.Fault](f.Err); ok {
			access := "read"
			if mf.Write {
				access = "write"
			}
			rf.Memory = &runMemoryFault{Lane: mf.Lane, Addr: hexAddr(mf.Addr), Size: mf.Size, Access: access, Reason: mf.Reason}
		}
		s.Faults = append(s.Faults, rf)
	}
	return s
}

// addOutputs lists the files a successful run wrote: its output buffers,
// then the manifest and profiles it was asked for.
func (s *runSummary) addOutputs(cfg *runConfig, res *runResult) {
	for _, i := range cfg.m.Outputs() {
		arg := i
		s.Outputs = append(s.Outputs, runOutput{Kind: "buffer", Arg: &arg,
			Path: filepath.Join(cfg.outDir, cfg.m.Args[i].Output), Bytes: int64(len(res.Outputs[i]))})
	}
	for _, f := range []struct{ kind, path string }{{"manifest", cfg.writeMan}, {"cpu-profile", cfg.cpuProf}, {"go-trace", cfg.goTrace}} {
		if f.path == "" {
			continue
		}
		o := runOutput{Kind: f.kind, Path: f.path}
		if fi, err := os.Stat(f.path); err == nil {
			o.Bytes = fi.Size()
		}
		s.Outputs = append(s.Outputs, o)
	}
}

// write prints the summary as one indented JSON document.
func (s *runSummary) write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// runJSON ends a run --json: the outputs are written as without --json, and
// the summary is printed instead of the text (also when the run faulted or
// was interrupted, before its error).
func runJSON(ctx context.Context, cfg *runConfig, res *runResult, stdout io.Writer) error {
	if failed := runFailed(ctx, res); failed != nil {
		status := "faulted"
		if len(res.Faults) == 0 {
			status = "interrupted"
		}
		if err := newRunSummary(cfg, res, status).write(stdout); err != nil {
			return err
		}
		return failed
	}
	if err := writeOutputs(cfg, res, io.Discard); err != nil {
		return err
	}
	s := newRunSummary(cfg, res, "ok")
	s.addOutputs(cfg, res)
	return s.write(stdout)
}
