# Game-engine solvers on the exact cone: the judged error and the cone violation of each solver
# against the friction coefficient of the random problems. Variables set by `conebench report`:
#   data     CSV blocks (one per solver, separated by two blank lines): mu, error_data median,
#            violation median, error_data max, violation max (a 0 drawn at floor)
#   n        number of blocks; titles, colours  the solvers' labels and colours (word lists)
#            (each curve its own point type: two labels may share a colour)
#   floor    where a value of 0 is drawn;  out  output without extension;  ttl  title
set datafile separator ","
set key below box horizontal spacing 1.1
set bmargin 9
set grid
set logscale y 10
set format y "10^{%L}"
set xlabel "friction coefficient μ of every contact" offset 0,0.3
do for [fmt in "pngcairo svg"] {
    if (fmt eq "pngcairo") { set terminal pngcairo size 1200,640 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1200,640 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    set multiplot layout 1,2 title ttl noenhanced
    set title "(a) exact-cone error error\\_data (solid: median, dashed: max)"
    set ylabel "judged error error\\_data"
    plot for [i=1:n] data index (i - 1) using 1:2 with linespoints linewidth 2 pointtype (i % 14 + 1) pointsize 1.3 \
         linecolor rgb word(colours, i) title word(titles, i) noenhanced, \
         for [i=1:n] data index (i - 1) using 1:4 with lines dashtype 2 linewidth 1 \
         linecolor rgb word(colours, i) notitle
    set title sprintf("(b) cone violation max_a(‖r_T‖/(μ r_N) − 1)^+ (0 drawn at %g)", floor)
    set ylabel "cone violation"
    plot for [i=1:n] data index (i - 1) using 1:3 with linespoints linewidth 2 pointtype (i % 14 + 1) pointsize 1.3 \
         linecolor rgb word(colours, i) title word(titles, i) noenhanced, \
         for [i=1:n] data index (i - 1) using 1:5 with lines dashtype 2 linewidth 1 \
         linecolor rgb word(colours, i) notitle
    unset multiplot
    set output
}
