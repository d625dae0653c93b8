module example.com/slugs

go 1.19
