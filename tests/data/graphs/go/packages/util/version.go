package util

const Version = "1.0"

func init() {}
