package v

func Vendored() {}
