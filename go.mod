module studio

go 1.26
