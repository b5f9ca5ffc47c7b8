module zoo

go 1.19
