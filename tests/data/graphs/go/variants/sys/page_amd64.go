package sys

func pagesize() int { return 4096 }
