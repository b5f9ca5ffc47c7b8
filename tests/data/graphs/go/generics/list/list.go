package list

// List is a generic singly linked list.
type List[T any] struct {
	head *node[T]
	size int
}

type node[T any] struct {
	value T
	next  *node[T]
}

// New makes an empty list.
func New[T any]() *List[T] { return &List[T]{} }

func (l *List[T]) Push(v T) {
	l.head = &node[T]{value: v, next: l.head}
	l.grow()
}

func (l *List[T]) grow() { l.size++ }

// Each calls f on every value: f is a parameter, so calling it resolves to nothing.
func (l *List[T]) Each(f func(T)) {
	for n := l.head; n != nil; n = n.next {
		f(n.value)
	}
}

// Map is generic over two types; T here is a type parameter, not a type of the package.
func Map[T, U any](l *List[T], f func(T) U) *List[U] {
	out := New[U]()
	l.Each(func(v T) { out.Push(f(v)) })
	return out
}

// Len is a same-name function in two packages.
func Len[T any](l *List[T]) int { return l.size }
