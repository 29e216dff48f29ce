# Overlay of time series (compliant / nonsmooth / closed form), one figure per scenario.
# Variables set by `conebench reproduce` (harness/reproduce.c):
#   out  output file without extension (writes out.png)      ttl  title      n  number of series
#   xl, yl  axis labels;   logx  1 for a logarithmic x axis;  note  a line under the title
#   f<i>  CSV file of series i;  x<i>, y<i>  its columns;  k<i>  factor on y;  t<i>  legend title
#   s<i>  style: 1 solid line, 2 dashed, 3 thick dotted (closed forms, sweeps)
#   ratio (optional) gnuplot's size ratio: -1 for equal x and y units (x-y paths)
#   keypos (optional) where the key goes instead of top right, e.g. "bottom right"
set datafile separator ","
set key top right box opaque noenhanced
set grid
if (exists("ratio")) { set size ratio ratio }
if (exists("keypos")) { eval("set key ".keypos) }
set xlabel xl noenhanced
set ylabel yl noenhanced
if (exists("logx") && logx == 1) { set logscale x 10; set format x "10^{%L}" }
set title sprintf("%s\n{/*0.8 %s}", ttl, exists("note") ? note : "") enhanced
set terminal pngcairo size 1000,620 enhanced font "DejaVu Sans,11"
set output out.".png"
sty(i) = int(value(sprintf("s%d", i)))
set style line 1 linewidth 2
plot for [i=1:n] value(sprintf("f%d", i)) \
     using (column(int(value(sprintf("x%d", i))))):(value(sprintf("k%d", i)) * column(int(value(sprintf("y%d", i))))) \
     with lines lw (sty(i) == 3 ? 4 : 2) dt sty(i) lc i title value(sprintf("t%d", i))
set output
