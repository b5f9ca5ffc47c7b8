//go:build !cgo || !linux

package codec

func probe() int { return 4 }

// Pure never builds with the cgo probe.
func Pure() int { return probe() }
