//go:build cgo && linux

package codec

func probe() int { return 3 }
