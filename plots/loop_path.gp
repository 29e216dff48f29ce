# Solvers inside the time loop (`loop` campaign lines with a closed-form stop): the subject's path
# in the ground plane, one curve per finished trajectory whose series records it, and the closed
# form's straight line (drawn last, on top: the exact cone's paths lie under it); curve i is
# dashed with pattern (i − 1) mod 5 + 1, so two labels that share a colour stay apart. Variables set
# by `conebench report`:
#   n          number of trajectories; f1..fn their step series (loops/<id>.csv: columns 9 and
#              10 are x, y: the displacement along the launch direction and across it, m)
#   s1..sn     every s<i>-th step is drawn;  t1..tn titles;  c1..cn colours
#   data       the closed form's path: two rows x,y (the start and its stop d_closed,0)
#   out        output file without extension (writes out.png and out.svg);  ttl  title
set datafile separator ","
set key below box horizontal noenhanced
set grid
set size ratio -1
set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05
set xlabel "x: displacement along the launch direction (m)"
set ylabel "y: across it (m)"
do for [fmt in "pngcairo svg"] {
    if (fmt eq "pngcairo") { set terminal pngcairo size 1200,640 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1200,640 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    set title ttl noenhanced
    plot for [i=1:n] value(sprintf("f%d", i)) every int(value(sprintf("s%d", i)))::1 using 9:10 \
         with lines linewidth 2 dashtype int(1 + (i - 1) % 5) linecolor rgb value(sprintf("c%d", i)) \
         title value(sprintf("t%d", i)), \
         data using 1:2 with lines linewidth 4 dashtype 3 linecolor rgb "#e69f00" \
         title "closed form (straight to its stop)"
    set output
}
