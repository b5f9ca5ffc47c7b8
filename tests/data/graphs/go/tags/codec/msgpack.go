//go:build !nomsgpack

package codec

// Codec is built unless nomsgpack is set.
type Codec struct{}

func decode() int { return 1 }

// Use reaches only the decode built with it.
func Use() int { return decode() }
