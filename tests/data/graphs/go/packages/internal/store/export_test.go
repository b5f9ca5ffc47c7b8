package store

// Total exposes total to the external test package.
var Total = total
