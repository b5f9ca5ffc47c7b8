package animal

import "io"

// Namer names things.
type Namer interface {
	Name() string
}

// Speaker can speak and be named.
type Speaker interface {
	Namer
	Speak() string
}

// Base carries the name every animal has.
type Base struct {
	name string
}

func (b Base) Name() string { return b.name }

func (b *Base) Rename(n string) { b.name = n }

// Dog embeds Base and an io.Writer.
type Dog struct {
	*Base
	io.Writer
	owner Owner
}

func (d *Dog) Speak() string {
	d.Rename("rex")
	return d.Name() + d.owner.Greeting()
}

type Owner struct{ Base }

func (o Owner) Greeting() string { return "hi " + o.Base.Name() }

// Talk calls through an interface: the dynamic type is not evident, so no edge.
func Talk(s Speaker) string {
	return s.Speak()
}

func Walk() string {
	d := Dog{Base: &Base{name: "rex"}}
	var o Owner
	o.Rename("ann")
	return d.owner.Greeting() + Talk(&d)
}
