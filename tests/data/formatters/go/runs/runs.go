// Package runs holds the placements gofmt and go doc are sensitive to (tests/formatters): a
// package doc comment with no header above it, declarations written without a blank line
// between them, and a grouped type declaration whose names gofmt aligns.
package runs

type (
	ID          int
	Registry    struct{ items []Item }
	LongestName interface{ Name() string }
)

// Item is one entry.
type Item struct {
	id   ID
	name string
}

func (i Item) Name() string {
	return i.name
}
func (r *Registry) Add(i Item) {
	r.items = append(r.items, i)
}
func (r *Registry) Names() []string {
	var names []string
	for _, i := range r.items {
		names = append(names, i.Name())
	}
	return names
}

var first = New().Names()
var second = New().Names()

// New makes a registry.
func New() *Registry {
	r := &Registry{}
	r.Add(Item{id: 1, name: "a"})
	return r
}
