package emu

import (
	"sync"
	"sync/atomic"
	"time"
)

// GridProgress is how far a run of work-groups has got.
type GridProgress struct {
	WorkGroups   uint64 // work-groups run to their end (in any order)
	Total        uint64 // work-groups the run has to run
	Instructions uint64 // instructions the ended work-groups executed
}

// ProgressInterval is how often GridConfig.Progress is called during a run.
const ProgressInterval = 50 * time.Millisecond

// progress counts ended work-groups and reports them.
type progress struct {
	f     func(GridProgress)
	total uint64
	done  atomic.Uint64
	insts atomic.Uint64
	stop  chan struct{}
	wg    sync.WaitGroup
}

// startProgress starts reporting a run of total work-groups to f on a
// goroutine of its own; nil when f is nil.
func startProgress(f func(GridProgress), total uint64) *progress {
	if f == nil {
		return nil
	}
	p := &progress{f: f, total: total, stop: make(chan struct{})}
	p.wg.Go(func() {
		t := time.NewTicker(ProgressInterval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.f(p.now())
			case <-p.stop:
				p.f(p.now()) // the final counts, never concurrently with the above
				return
			}
		}
	})
	return p
}

// add counts one ended work-group that executed insts instructions.
func (p *progress) add(insts uint64) {
	if p != nil {
		p.insts.Add(insts)
		p.done.Add(1)
	}
}

func (p *progress) now() GridProgress {
	return GridProgress{WorkGroups: min(p.done.Load(), p.total), Total: p.total, Instructions: p.insts.Load()}
}

// finish makes the last report and returns once it has been made.
func (p *progress) finish() {
	if p != nil {
		close(p.stop)
		p.wg.Wait()
	}
}
