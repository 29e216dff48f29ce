1 2
0 0
foo 1
