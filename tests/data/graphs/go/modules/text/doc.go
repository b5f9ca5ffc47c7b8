// Package text transforms text.
package text

const Name = "text"
