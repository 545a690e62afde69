// Package samples holds wavedbg's bundled teaching kernels: assembly sources,
// the code objects built from them and a walkthrough for each, embedded so
// that `wavedbg` with no argument has something to open.
package samples
