package store

import "fmt"

func (s *Store) Report() string {
	return fmt.Sprint(len(s.counts), total(s))
}

func total(s *Store) int {
	n := 0
	for _, c := range s.counts {
		n += c
	}
	return n
}
