// The tools module nests inside the root one.
module example.com/tools // its own module
