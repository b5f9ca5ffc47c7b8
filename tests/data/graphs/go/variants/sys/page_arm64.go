//go:build !windows

package sys

func pagesize() int { return 16384 }
