//go:build !amd64 || purego

package lanes

// Without assembly the vector version is the Go definition (see int_other.go).
var progressionsAVX2 = progressionsGo
