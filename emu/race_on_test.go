//go:build race

package emu

const raceEnabled = true
