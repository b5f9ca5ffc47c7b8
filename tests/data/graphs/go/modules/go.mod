module example.com/root

go 1.19
