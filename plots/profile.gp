# Dolan–Moré performance profile. Variables set by `conebench report`:
#   data  CSV file: header "tau,<solver 1>,<solver 2>,..." then rows tau,rho_1,rho_2,...
#   out   output file without extension (writes out.png and out.svg)
#   ttl   title;  what  the measure ("time", "iterations", "work")
#   ncol  number of columns in data
#   xmax  right end of the τ axis (a margin past the last step of any curve)
#   counted  what the measure counts (axis label);  colours  each solver's fixed colour (space
#         separated, in column order)
set datafile separator ","
set key outside right top title "solver" box Left reverse width 1
set logscale x 10
set xrange [1:xmax]
if (xmax < 20) { set xtics add ("1.25" 1.25, "1.5" 1.5, "2" 2, "3" 3, "5" 5) }  # a short axis
set yrange [0:1.02]
set grid xtics ytics mxtics
set xlabel sprintf("performance ratio τ  (%s / best %s on the problem; %s)", what, what, counted)
set ylabel "fraction of problems solved within τ, ρ_s(τ)"
set title ttl noenhanced
do for [t in "pngcairo svg"] {
    if (t eq "pngcairo") { set terminal pngcairo size 1100,650 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1100,650 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    plot for [i=2:ncol] data using 1:i with steps linewidth 2 linecolor rgb word(colours, i - 1) \
         title columnheader(i) noenhanced
    set output
}
