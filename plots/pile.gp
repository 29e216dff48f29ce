# Sphere pile regimes (Acary & Bourrier §6.2, Fig. 5): normalised height and mean base radius of
# the final pile against the rolling resistance mu_r, one curve per Coulomb coefficient mu.
# Variables: csv (mu,mu_r,height_over_phi,mean_radius_over_phi,base_count,...), out (no suffix),
# mus (the mu values to draw, space separated), sub (subtitle).
set datafile separator ","
if (!exists("mus")) mus = "0.1 0.3 1"
colors = "#4477aa #66ccee #228833 #ccbb44 #ee6677 #aa3377 #bbbbbb"
if (!exists("sub")) sub = ""
if (strlen(sub) == 0) sub = "250 spheres, φ = 0.02 m, h = 1e-3 s, 20 s (the paper's setup)"
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1200,520 enhanced font "DejaVu Sans,11" } \
    else { set terminal svg size 1200,520 enhanced font "DejaVu Sans,11" }
    set output out.".".fmt
    set multiplot layout 1,2 title "Sphere pile regimes, nonsmooth Moreau–Jean + nsgs (Acary & Bourrier §6.2, Fig. 5)\n".sub noenhanced
    set logscale x
    set format x "10^{%L}"
    set xlabel "rolling resistance μ_r (m)"
    set grid
    set key left top box title "Coulomb μ"
    set title "(a) pile height / φ"
    set ylabel "height / φ"
    set yrange [0:*]
    plot for [i=1:words(mus)] csv using ($1 == real(word(mus, i)) ? $2 : 1/0):3 every ::1 \
         with linespoints lw 2 pt 7 lc rgb word(colors, i) title "μ = ".word(mus, i)
    set title "(b) mean radius of the base / φ"
    set ylabel "mean radius / φ (log scale)"
    set logscale y
    set yrange [*:*]
    set key right top box title "Coulomb μ"
    plot for [i=1:words(mus)] csv using ($1 == real(word(mus, i)) ? $2 : 1/0):4 every ::1 \
         with linespoints lw 2 pt 7 lc rgb word(colors, i) title "μ = ".word(mus, i)
    unset multiplot
    unset logscale y
    set output
}
