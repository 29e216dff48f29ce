# Phase portrait of the slipping wheel near the rolling state, projected on (u1, u2)
# (Antali & Stepan 2019, Fig. 6–9). Variables set by `conebench filippov map`:
#   dir     directory holding filippov_phase_<cs>_{traj,arrows,rays}.dat
#   cs      case name (I, II, III, IV);  xs, ys  the state (x = M_d/(μmgρ), y = ρω2ω3/(gμ))
# Writes dir/filippov_phase_<cs>.png and .svg.
base = dir."/filippov_phase_".cs
traj = base."_traj.dat"
arrows = base."_arrows.dat"
rays = base."_rays.dat"
out = base
set title sprintf("Case %s: slipping wheel near Σ at M_d = %g μmgρ, ρω_2ω_3 = %g gμ (AS Fig. 6–9)", cs, xs, ys) font ",13"
set xlabel "u_1 / ε   (slip velocity along t_1, ε = 1 mm/s)"
set ylabel "u_2 / ε   (along the wheel axis t_2)"
set size ratio -1
set xrange [-1.25:1.25]
set yrange [-1.25:1.25]
set key outside right top box opaque width 1
set grid lc rgb "gray80" dt 3
set object 1 circle at 0,0 size 0.025 front fc rgb "black" fs solid
is(t, k) = (t == k) ? 1 : NaN
do for [t in "pngcairo svg"] {
    if (t eq "pngcairo") { set terminal pngcairo size 1250,900 enhanced font "DejaVu Sans,11"; set output out.".png" }
    else { set terminal svg size 1250,900 enhanced font "DejaVu Sans,11" background "white"; set output out.".svg" }
    plot traj using 1:2 with lines lw 1 lc rgb "#9e9e9e" title "trajectories of the slipping eq. (64)", \
         arrows using 1:2:3:4 with vectors head filled size 0.045,25 lc rgb "#616161" notitle, \
         rays using 1:2:($3*is($5,0)):($4*is($5,0)) with vectors nohead lw 5 lc rgb "#08519c" title "attracting, angularly stable", \
         rays using 1:2:($3*is($5,1)):($4*is($5,1)) with vectors nohead lw 2.5 lc rgb "#6baed6" title "attracting, angularly unstable", \
         rays using 1:2:($3*is($5,2)):($4*is($5,2)) with vectors nohead lw 5 dt 2 lc rgb "#cb181d" title "repelling, angularly stable", \
         rays using 1:2:($3*is($5,3)):($4*is($5,3)) with vectors nohead lw 2.5 dt 2 lc rgb "#fc9272" title "repelling, angularly unstable"
    set output
}
