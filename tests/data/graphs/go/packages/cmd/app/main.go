package main

import (
	"fmt"

	st "example.com/shop/internal/store"
	"example.com/shop/util"
)

func main() {
	s := st.New()
	s.Add("apple")
	fmt.Println(s.Report(), util.Version)
	run(s)
}

func run(s *st.Store) {
	s.Add("pear")
	new(st.Store).Add("plum")
	_ = st.Store{}
}
