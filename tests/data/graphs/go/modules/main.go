package main

import (
	. "example.com/root/text"
	_ "example.com/root/plugin"
	bad "example.com/root/tools/lib"
	lib "example.com/tools/lib"
	"example.com/v"
)

func main() {
	Upper("x")
	lib.Help()
	bad.Help()
	v.Vendored()
}
