package sys

func open() int { return 2 }
