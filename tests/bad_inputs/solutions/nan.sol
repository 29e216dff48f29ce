1 2
0 nan
1 1
