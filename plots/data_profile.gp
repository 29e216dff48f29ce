# Moré–Wild data profile: the share of problems each solver solves within a budget of work.
# Variables set by `conebench report`:
#   data  CSV file: header "k,<solver 1>,<solver 2>,..." then rows k,d_1,d_2,... (steps)
#   out   output file without extension (writes out.png and out.svg)
#   ttl   title;  ncol  number of columns in data;  xmin, xmax  the budget axis' ends
#   xlab  the budget's axis label;  colours  each solver's fixed colour (space separated)
set datafile separator ","
set key outside right top title "solver" box Left reverse width 1
set logscale x 10
set format x "10^{%T}"
set xrange [xmin:xmax]
set yrange [0:1.02]
set grid xtics ytics mxtics
set xlabel xlab noenhanced
set ylabel "fraction of problems solved within the budget, d_s(k)"
set title ttl noenhanced
do for [t in "pngcairo svg"] {
    if (t eq "pngcairo") { set terminal pngcairo size 1100,650 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1100,650 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    plot for [i=2:ncol] data using 1:i with steps linewidth 2 linecolor rgb word(colours, i - 1) \
         title columnheader(i) noenhanced
    set output
}
