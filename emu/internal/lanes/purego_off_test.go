//go:build amd64 && !purego

package lanes

const purego = false
