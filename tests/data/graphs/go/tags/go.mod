module example.com/tags

go 1.19
