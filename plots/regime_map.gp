# Steady-state regime map of the sphere on an incline (Fang & Negrut Fig. 10).
# Variables: data (CSV: alpha_deg,eta_r,code with 1 S, 2 PR, 3 PS, 4 RwS), bnd (CSV:
# eta_r,alpha_S,alpha_PR,alpha_05,alpha_k: the analytic boundaries of App. D, the η_r = 0.5
# line, and the model's own S/PR edge atan(2 η_r μ_k)), out, ttl, note, ps (point size)
set datafile separator ","
set terminal pngcairo size 1000,820 enhanced font "DejaVu Sans,11"
set output out.".png"
set title sprintf("%s\n{/*0.8 %s}", ttl, note) enhanced
set xlabel "incline angle α (deg)"
set ylabel "rolling resistance η_r"
set xrange [0.5:30.5]
set yrange [0.195:0.505]
set key below center box vertical maxrows 4 width -4 title "steady state at t = 1 s" noenhanced
set palette defined (1 "#4477aa", 2 "#66ccee", 3 "#ccbb44", 4 "#ee6677")
unset colorbox
set cbrange [1:4]
plot data using 1:($3 == 1 ? $2 : 1/0) with points pt 5 ps ps lc rgb "#4477aa" title "S (static)", \
     data using 1:($3 == 2 ? $2 : 1/0) with points pt 5 ps ps lc rgb "#66ccee" title "PR (pure rolling)", \
     data using 1:($3 == 3 ? $2 : 1/0) with points pt 5 ps ps lc rgb "#ccbb44" title "PS (pure slip)", \
     data using 1:($3 == 4 ? $2 : 1/0) with points pt 5 ps ps lc rgb "#ee6677" title "RwS (rolling with slip)", \
     bnd using 2:1 with lines lw 3 lc rgb "black" title "α = atan(2 η_r μ_s)", \
     bnd using 3:1 with lines lw 3 dt 2 lc rgb "black" title "α = atan(3.5 μ_s − 5 η_r μ_k)", \
     bnd using 4:1 with lines lw 3 dt 3 lc rgb "black" title "η_r = 0.5", \
     bnd using 5:1 with lines lw 2 dt 4 lc rgb "#aa3377" title "α = atan(2 η_r μ_k), the model's S/PR edge"
set output
