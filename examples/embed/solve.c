/* conebench example: link the solvers into your own program. Reads a problem file (any format
 * conebench reads) or generates a random rolling-friction problem, solves it with nsgs and
 * prints what the judge says.
 *
 *   cc -std=c11 solve.c $(pkg-config --cflags --libs conebench) -o solve
 *   ./solve [PROBLEM_FILE] */
#include <stdio.h>

#include <conebench/generate.h>
#include <conebench/io.h>
#include <conebench/solver.h>

/* The problem of argv[1], or a random rolling3d problem with 50 contacts. */
static int load(int argc, char **argv, cb_problem **prob, cb_error *err)
{
    if (argc > 1) {
        cb_read_settings rs;
        cb_read_settings_default(&rs);
        return cb_read_problem(argv[1], &rs, prob, err);
    }
    cb_random_settings g;
    cb_random_settings_default(&g);
    g.kind = CB_KIND_ROLLING3D;
    g.nc = 50;
    g.seed = 7;
    return cb_generate_random(&g, prob, NULL, NULL, err);
}

int main(int argc, char **argv)
{
    cb_error err = {{0}};
    cb_problem *prob = NULL;
    cb_solution sol = {0};
    cb_info info = {0};
    const cb_solver *nsgs = cb_solver_find("nsgs");
    cb_settings s;
    cb_settings_default(&s);
    s.tol = 1e-8;
    int rc = load(argc, argv, &prob, &err);
    if (rc == CB_OK)
        rc = cb_solution_alloc(prob, &sol, &err);
    if (rc == CB_OK)
        rc = cb_solve(nsgs, prob, &s, &sol, &info, &err);
    if (rc == CB_OK)
        printf("%s: nc = %d, %s after %d sweeps (%s), judged error %.3e\n",
               cb_kind_name(prob->kind), prob->nc, info.solved ? "solved" : "not solved",
               info.iterations, cb_status_name(info.status), info.error_data);
    else
        fprintf(stderr, "solve: %s\n", err.text);
    cb_info_free(&info);
    cb_solution_free(&sol);
    cb_problem_free(prob);
    return rc == CB_OK && info.solved ? 0 : 1;
}
