package util

import "strings"

// Clean normalises a name.
func Clean(name string) string {
	return strings.ToLower(trim(name))
}

func trim(s string) string { return strings.TrimSpace(s) }
