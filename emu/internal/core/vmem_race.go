//go:build race

package core

// raceBuild reports a build with the race detector: shared aligned dwords
// move with sync/atomic (memory_shared.go).
const raceBuild = true
