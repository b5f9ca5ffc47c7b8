package store_test

import (
	"testing"

	"example.com/shop/internal/store"
)

func TestAdd(t *testing.T) {
	s := store.New()
	s.Add("x")
	t.Log(s.Report(), store.Total(s))
}
