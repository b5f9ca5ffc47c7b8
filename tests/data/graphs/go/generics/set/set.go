package set

import "example.com/gen/list"

type Set[T comparable] struct {
	items *list.List[T]
}

func From[T comparable](values ...T) Set[T] {
	s := Set[T]{items: list.New[T]()}
	for _, v := range values {
		s.items.Push(v)
	}
	return s
}

// Len is a same-name function in two packages.
func Len[T comparable](s Set[T]) int { return list.Len(s.items) }

func Doubled(s Set[int]) int {
	l := list.Map(s.items, func(v int) int { return 2 * v })
	return list.Len(l) + Len(s)
}
