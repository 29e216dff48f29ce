# Convergence curves of every solver on one problem: judged residual against iteration (left)
# and against time (right). Variables set by `conebench report` and `conebench plot`:
#   data  file with 2·nblk blocks (separated by two blank lines): blocks 0..nblk-1 the traced
#         curves, each "# <solver label>" then rows "iteration time_s error", a single blank
#         line where the iteration numbers jump (the line breaks there); blocks nblk..2·nblk-1
#         the same solvers' untraced stretches, each as its two ends (drawn dotted)
#   titles  the solver labels, each double-quoted, space separated (word());  nblk  curves
#   colours, points  each solver's fixed colour ("#rrggbb") and point type, space separated
#   order  the curves' block numbers in drawing order of their markers (sparse ones last, on
#         top);  gaps  1 when some curve has an untraced stretch (a key entry for the dots)
#   out   output file without extension (writes out.png, and out.svg when terms has svg)
#   terms  "pngcairo svg" or "pngcairo";  ttl  title;  tol  tolerance
#   zfloor  where an error of exactly 0 is drawn (a decade under the least error and the
#         tolerance: the bottom edge when no error is 0);  zeros  1 when some error is exactly 0
#   tfloor  where a time of exactly 0 is drawn (a decade under the least positive time)
# Iteration 0 is drawn at 1 on the log axis (x = iteration + 1).
set logscale y 10
set format y "10^{%T}"
set grid xtics ytics
err(e) = e > 0 ? e : zfloor
# the floor line (macros; empty when no error is 0), without and with its key entry
zstyle = sprintf(', %.17g with lines dashtype 4 linecolor rgb "gray60" ', zfloor)
zleft = zeros ? zstyle.'notitle' : ""
zright = zeros ? zstyle.sprintf('title "error = 0 (drawn at %.0e)"', zfloor) : ""
if (zeros) { set yrange [zfloor / 10:*] } else { set yrange [zfloor:*] }  # the floor line above the bottom edge; the tolerance line inside
tm(t) = t > 0 ? t : tfloor
set label 1 sprintf("tolerance %g", tol) at graph 0.02, first tol * 1.8 left textcolor rgb "gray30" front
col(i) = word(colours, i + 1)
pt(i) = word(points, i + 1) + 0
ord(k) = word(order, k + 1) + 0
gapkey = gaps ? ', NaN with lines dashtype 3 linewidth 1.5 linecolor rgb "gray40" title "not traced (dotted)"' : ""
do for [t in terms] {
    if (t eq "pngcairo") { set terminal pngcairo size 1400,560 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1400,560 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    set multiplot layout 1,2 title ttl font ",13" noenhanced
    set xlabel "iteration + 1  (iteration 0 at 1)"; set ylabel "judged residual error_data (man conebench, VERDICT)" noenhanced
    set logscale x 10; set format x "%g"
    set key off
    plot for [i=0:nblk-1] data index nblk + i using ($1 + 1):(err($3)) with lines \
         dashtype 3 linewidth 2.5 linecolor rgb col(i) notitle, \
         for [i=0:nblk-1] data index i using ($1 + 1):(err($3)) with linespoints \
         linewidth 2 linecolor rgb col(i) pointtype pt(i) pointsize 0.8 title word(titles, i+1) noenhanced, \
         for [k=0:nblk-1] data index ord(k) using ($1 + 1):(err($3)) with points \
         linecolor rgb col(ord(k)) pointtype pt(ord(k)) pointsize 0.8 notitle, \
         tol with lines dashtype 2 linecolor rgb "gray40" notitle @zleft
    set xlabel sprintf("time [s]  (time 0 at %.0e)", tfloor); set format x "10^{%T}"
    set key outside right top title "solver" box
    plot for [i=0:nblk-1] data index nblk + i using (tm($2)):(err($3)) with lines \
         dashtype 3 linewidth 2.5 linecolor rgb col(i) notitle, \
         for [i=0:nblk-1] data index i using (tm($2)):(err($3)) with linespoints \
         linewidth 2 linecolor rgb col(i) pointtype pt(i) pointsize 0.8 title word(titles, i+1) noenhanced, \
         for [k=0:nblk-1] data index ord(k) using (tm($2)):(err($3)) with points \
         linecolor rgb col(ord(k)) pointtype pt(ord(k)) pointsize 0.8 notitle, \
         tol with lines dashtype 2 linecolor rgb "gray40" title "tolerance" @gapkey @zright
    unset multiplot
    set output
}
