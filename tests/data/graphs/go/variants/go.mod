module example.com/variants

go 1.19
