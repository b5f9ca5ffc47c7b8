//go:build nomsgpack

package codec

// Plain embeds a Codec that is never built together with it: no base.
type Plain struct {
	Codec
}

func decode() int { return 2 }

// Fallback reaches only its own decode.
func Fallback() int { return decode() }
