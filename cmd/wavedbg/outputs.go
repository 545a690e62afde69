package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// runFailed reports a completed launch that must write no output: a wave
// faulted or the run was interrupted.
func runFailed(ctx context.Context, res *runResult) error {
	if len(res.Faults) > 0 {
		return fmt.Errorf("%d wave(s) faulted; no outputs written (first: %s)", len(res.Faults), res.Faults[0])
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted; no outputs written: %w", err)
	}
	return nil
}

// writeOutputs writes every output buffer to a temporary file, all at once
// (writing a large file is mostly the kernel's work, which need not wait
// for the previous one), then commits the run's output set: every output,
// profiles and manifest included, is put in place, or none is and every
// destination is left as it was.
func writeOutputs(cfg *runConfig, res *runResult, stdout io.Writer) error {
	outs := cfg.m.Outputs()
	for _, i := range outs {
		if i >= len(res.Outputs) || int64(len(res.Outputs[i])) != cfg.m.Args[i].Size {
			return fmt.Errorf("internal error: no result for output %s", cfg.m.Args[i].Output)
		}
	}
	set := cfg.outputs()
	dsts, tmps, errs := make([]string, len(outs)), make([]string, len(outs)), make([]error, len(outs))
	var wg sync.WaitGroup
	for j, i := range outs {
		dsts[j] = filepath.Join(cfg.outDir, cfg.m.Args[i].Output)
		wg.Go(func() { tmps[j], errs[j] = writeTemp(dsts[j], res.Outputs[i]) })
	}
	wg.Wait()
	for j, t := range tmps {
		if t != "" {
			set.adopt(dsts[j], t)
		}
	}
	if err := errors.Join(errs...); err != nil {
		set.abort()
		return err
	}
	names := set.names()
	if err := set.commit(); err != nil {
		return err
	}
	if !cfg.quiet {
		for _, n := range names {
			fmt.Fprintf(stdout, "wrote %s\n", n)
		}
	}
	return nil
}

// writeTemp writes b to a new temporary file beside dst (creating dst's
// directory) and returns its name; on failure it leaves no file.
func writeTemp(dst string, b []byte) (string, error) {
	f, err := tempFile(dst)
	if err != nil {
		return "", err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// An outputSet holds the files a run writes (buffer outputs, --cpuprofile,
// --gotrace, --write-manifest) in temporary files beside their
// destinations until the run has succeeded. commit puts them all in place
// or, if it cannot, leaves every destination as it was; abort drops them.
type outputSet struct {
	outs []*pendingOutput
}

// pendingOutput is one output: written to tmp, bound for dst.
type pendingOutput struct {
	dst, tmp string
	f        *os.File // open while the run writes into it (profiles)
	old      string   // dst's previous file, moved aside during commit
}

// rename is os.Rename; tests substitute it to make a step of commit fail.
var rename = os.Rename

// tempPattern names the temporary files beside dst; the prefix dot and the
// wavedbg-tmp mark make leftovers (after a kill) easy to recognise.
func tempPattern(dst, kind string) string {
	return "." + filepath.Base(dst) + ".wavedbg-" + kind + "-*"
}

// tempFile creates a new temporary file beside dst, creating dst's
// directory if need be.
func tempFile(dst string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, err
	}
	return os.CreateTemp(filepath.Dir(dst), tempPattern(dst, "tmp"))
}

// create adds an output bound for dst and returns its temporary file, for
// the run to write into; commit or abort closes it.
func (s *outputSet) create(dst string) (*os.File, error) {
	f, err := tempFile(dst)
	if err != nil {
		return nil, err
	}
	s.outs = append(s.outs, &pendingOutput{dst: dst, tmp: f.Name(), f: f})
	return f, nil
}

// adopt adds tmp, a complete temporary file (see writeTemp), bound for dst.
func (s *outputSet) adopt(dst, tmp string) {
	s.outs = append(s.outs, &pendingOutput{dst: dst, tmp: tmp})
}

// write adds an output bound for dst holding b.
func (s *outputSet) write(dst string, b []byte) error {
	tmp, err := writeTemp(dst, b)
	if err != nil {
		return err
	}
	s.adopt(dst, tmp)
	return nil
}

// names returns the destinations, in the order they were added.
func (s *outputSet) names() []string {
	var n []string
	for _, o := range s.outs {
		n = append(n, o.dst)
	}
	return n
}

// close closes o's file if it is still open and makes it readable as an
// output file.
func (o *pendingOutput) close() error {
	if o.f == nil {
		return nil
	}
	err := o.f.Close()
	o.f = nil
	if err == nil {
		err = os.Chmod(o.tmp, 0o644)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", o.dst, err)
	}
	return nil
}

// checkReplaceable reports whether dst can be replaced by a new file: it
// may be missing, a regular file, or a symbolic link to one or to nothing
// (the link is replaced, not followed); not a directory, a device, a pipe
// or a socket.
func checkReplaceable(dst string) error {
	fi, err := os.Lstat(dst)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if fi, err = os.Stat(dst); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	switch {
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("cannot replace %s: it is a directory", dst)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("cannot replace %s: it is not a regular file but a %s", dst, fileKind(fi.Mode()))
	}
	return nil
}

// fileKind names the type of a file that is not regular.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// commit puts every output in place, all or none. It first checks that
// every destination can be replaced, touching nothing if one cannot; then
// it moves the existing destinations aside and renames the new files in.
// If a step fails it moves every old file back and removes the new ones, so
// the destinations are as they were.
func (s *outputSet) commit() error {
	for _, o := range s.outs {
		if err := o.close(); err != nil {
			s.abort()
			return err
		}
	}
	for _, o := range s.outs {
		if err := checkReplaceable(o.dst); err != nil {
			s.abort()
			return err
		}
	}
	var err error
	done := 0 // outputs renamed into place
	for _, o := range s.outs {
		if err = o.moveAside(); err != nil {
			break
		}
	}
	if err == nil {
		for _, o := range s.outs {
			if err = rename(o.tmp, o.dst); err != nil {
				break
			}
			o.tmp = ""
			done++
		}
	}
	if err != nil {
		if rerr := s.restore(done); rerr != nil {
			err = fmt.Errorf("%w; restoring the previous files: %v", err, rerr)
		}
		s.abort()
		return err
	}
	for _, o := range s.outs {
		if o.old != "" {
			os.Remove(o.old)
		}
	}
	s.outs = nil
	return nil
}

// moveAside renames an existing destination to a temporary name beside it.
func (o *pendingOutput) moveAside() error {
	if _, err := os.Lstat(o.dst); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	// A placeholder reserves a unique name; the rename replaces it.
	f, err := os.CreateTemp(filepath.Dir(o.dst), tempPattern(o.dst, "old"))
	if err != nil {
		return err
	}
	f.Close()
	if err := rename(o.dst, f.Name()); err != nil {
		os.Remove(f.Name())
		return err
	}
	o.old = f.Name()
	return nil
}

// restore undoes a failed commit of which the first done outputs were
// renamed into place: those are removed and every moved-aside file goes
// back to its name.
func (s *outputSet) restore(done int) error {
	var errs []error
	for i, o := range s.outs {
		switch {
		case o.old != "":
			// Replaces the new file, if one was renamed in.
			if err := rename(o.old, o.dst); err != nil {
				errs = append(errs, fmt.Errorf("%s is kept as %s: %w", o.dst, o.old, err))
				continue
			}
			o.old = ""
		case i < done:
			if err := os.Remove(o.dst); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// abort closes and removes every temporary file; no destination is
// touched. It may be called after commit, when it does nothing.
func (s *outputSet) abort() {
	for _, o := range s.outs {
		if o.f != nil {
			o.f.Close()
			o.f = nil
		}
		if o.tmp != "" {
			os.Remove(o.tmp)
			o.tmp = ""
		}
	}
	s.outs = nil
}

// namedPath is a file the run reads or writes, with what names it.
type namedPath struct {
	what, path string
}

func (p namedPath) String() string { return p.what + " " + p.path }

// runFiles lists the files the run reads and those it writes.
func runFiles(cfg *runConfig) (inputs, outputs []namedPath) {
	inputs = append(inputs, namedPath{"the code object", cfg.file})
	if cfg.manFile != "" {
		inputs = append(inputs, namedPath{"--manifest", cfg.manFile})
	}
	for _, f := range []namedPath{{"--write-manifest", cfg.writeMan}, {"--cpuprofile", cfg.cpuProf}, {"--gotrace", cfg.goTrace}} {
		if f.path != "" {
			outputs = append(outputs, f)
		}
	}
	for i, a := range cfg.m.Args {
		if a.Input != "" {
			p := a.Input
			if !filepath.IsAbs(p) {
				p = filepath.Join(cfg.m.Dir, p)
			}
			inputs = append(inputs, namedPath{fmt.Sprintf("argument %d's input", i), p})
		}
		if a.Output != "" {
			p := filepath.Join(cfg.outDir, a.Output)
			outputs = append(outputs, namedPath{fmt.Sprintf("argument %d's output", i), p})
		}
	}
	return inputs, outputs
}

// checkOutputPaths refuses, before anything is loaded, an output that names
// an input of the run or another output, however spelt (relative or
// absolute, through symbolic or hard links), and an output whose
// destination cannot be replaced.
func checkOutputPaths(cfg *runConfig) error {
	inputs, outputs := runFiles(cfg)
	type file struct {
		namedPath
		real string      // absolute, symbolic links resolved
		fi   os.FileInfo // nil if it does not exist
	}
	resolve := func(ps []namedPath) ([]file, error) {
		files := make([]file, len(ps))
		for i, p := range ps {
			real, err := realPath(p.path)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			files[i] = file{namedPath: p, real: real}
			files[i].fi, _ = os.Stat(p.path)
		}
		return files, nil
	}
	ins, err := resolve(inputs)
	if err != nil {
		return err
	}
	outs, err := resolve(outputs)
	if err != nil {
		return err
	}
	same := func(a, b file) bool {
		return a.real == b.real || a.fi != nil && b.fi != nil && os.SameFile(a.fi, b.fi)
	}
	for i, o := range outs {
		for _, in := range ins {
			if same(o, in) {
				return usageError{fmt.Sprintf("%s names %s, an input of the run; write it elsewhere", o.namedPath, in.namedPath)}
			}
		}
		for _, p := range outs[:i] {
			if same(o, p) {
				return usageError{fmt.Sprintf("%s and %s name the same file", p.namedPath, o.namedPath)}
			}
		}
	}
	for _, o := range outs {
		if err := checkReplaceable(o.path); err != nil {
			return fmt.Errorf("%s: %w", o.what, err)
		}
	}
	return nil
}

// realPath returns p as an absolute path with the symbolic links of its
// existing part resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for dir := abs; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}
