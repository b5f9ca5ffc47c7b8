package p

func f() {}

func g() { f() }
