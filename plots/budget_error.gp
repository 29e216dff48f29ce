# Fixed-budget error profile: the error each solver has reached within a budget (iterations or
# seconds), the median over the problems. Variables set by `conebench report`:
#   data  CSV file: header "budget,<solver 1>,..." then rows budget,e_1,e_2,... (nan: none yet)
#   out   output file without extension (writes out.png and out.svg)
#   ttl   title;  ncol  number of columns in data;  xlab  the budget's axis label
#   tol   the tolerance (a dashed line);  colours  each solver's fixed colour (space separated)
#   powers  1: budget tics as powers of ten (seconds), 0: plain numbers (iterations)
set datafile separator ","
set datafile missing "nan"
set key outside right top title "solver" box Left reverse width 1
set logscale xy 10
set format y "10^{%T}"
set grid xtics ytics
if (powers) { set format x "10^{%T}" }
set xlabel xlab noenhanced
set ylabel "median over problems of the least error_data reached within the budget" noenhanced
set title ttl noenhanced
do for [t in "pngcairo svg"] {
    if (t eq "pngcairo") { set terminal pngcairo size 1100,650 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1100,650 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    plot for [i=2:ncol] data using 1:i with lines linewidth 2 linecolor rgb word(colours, i - 1) \
         title columnheader(i) noenhanced, \
         tol with lines dashtype 2 linecolor rgb "gray40" title "tolerance"
    set output
}
