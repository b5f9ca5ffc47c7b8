package codec

// Run is built either way: both variants of decode.
func Run() int { return decode() + probe() }
