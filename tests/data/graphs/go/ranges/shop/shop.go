// Package shop ranges over slices, arrays and maps whose elements have methods.
package shop

type Item struct{ price int }

func (i *Item) Price() int { return i.price }

type Tag struct{}

func (t Tag) Price() int { return 0 }

type Cart struct {
	first  *Item
	items  []*Item
	byName map[string]Item
	codes  []string
	tags   []Tag
}

// Items returns the cart's items.
func (c *Cart) Items() []*Item { return c.items }

var catalog [4]Item

func All() []Item { return nil }

func (c *Cart) OverField() {
	for _, it := range c.items {
		it.Price()
	}
}

func (c *Cart) OverMethod() {
	for _, it := range c.Items() {
		it.Price()
	}
}

func (c *Cart) OverMap() {
	for _, v := range c.byName {
		v.Price()
	}
}

func OverParameter(extra []Item) {
	for _, e := range extra {
		e.Price()
	}
}

func OverFunction() {
	for _, a := range All() {
		a.Price()
	}
}

func OverVar() {
	for _, k := range catalog {
		k.Price()
	}
}

func OverTags(c *Cart) {
	local := []Tag{}
	for _, l := range local {
		l.Price()
	}
}

// A local assigned a field takes the field's type.
func (c *Cart) FieldLocal() {
	it := c.first
	it.Price()
}

// An index, a string element, a name reused with another element type: not evident.
func Unknown(c *Cart) {
	for i := range c.items {
		i.Price()
	}
	for _, code := range c.codes {
		code.Price()
	}
	for _, x := range c.items {
		x.Price()
	}
	for _, x := range c.tags {
		x.Price()
	}
}
