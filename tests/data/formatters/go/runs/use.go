package runs

func use(l LongestName) string {
	return l.Name() + New().Names()[0]
}
