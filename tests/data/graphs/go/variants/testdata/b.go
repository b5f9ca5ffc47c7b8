package p

func f() {}
