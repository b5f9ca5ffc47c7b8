package lib

func Help() {}
