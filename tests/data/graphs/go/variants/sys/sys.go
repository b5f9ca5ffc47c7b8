package sys

// Open calls the variant of open its platform builds.
func Open() int { return open() + pagesize() }
