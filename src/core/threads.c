/* conebench — the thread count of the current run (base.h).
 *
 * GCC's libgomp cannot start a team of threads in a process forked from one whose team it had
 * started (the child waits for threads that were not copied). So once a kernel has been given
 * more than one thread, a child forked afterwards (a campaign run, a solve worker) runs every
 * kernel on one thread: the same bits, as with any count. */
#include "base.h"

#include <pthread.h>

static _Thread_local int run_threads = 1; /* per calling thread: runs in threads do not mix */
static _Atomic int team_started;          /* a kernel was given more than one thread */
static _Atomic int forked_after_team;     /* this process is such a fork: one thread */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void in_child(void) { forked_after_team = team_started; }

static void register_atfork(void) { pthread_atfork(NULL, NULL, in_child); }

int cb_threads(void)
{
    if (run_threads == 1 || forked_after_team)
        return 1;
    pthread_once(&atfork_once, register_atfork);
    team_started = 1;
    return run_threads;
}

int cb_threads_for(long long rows) { return rows >= CB_PAR_MIN_ROWS ? cb_threads() : 1; }

int cb_threads_set(int n)
{
    int old = run_threads;
    run_threads = n < 1 ? 1 : n;
    return old;
}

void cb_parallel_rows(int rows, cb_rows_fn fn, void *ctx)
{
    int threads = cb_threads_for(rows);
    if (threads == 1) { /* no OpenMP region at all: a small product pays nothing for threads */
        fn(ctx, 0, rows);
        return;
    }
    CB_OMP(omp parallel for num_threads(threads) schedule(static))
    for (int c = 0; c < threads; c++)
        fn(ctx, (int)((long long)rows * c / threads), (int)((long long)rows * (c + 1) / threads));
}

/* The least row r with work[r] + r ≥ target (bisection on the nondecreasing work[r] + r). */
static int split_at(int rows, const int *work, long long target)
{
    int lo = 0, hi = rows;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if ((long long)work[mid] - work[0] + mid >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

void cb_parallel_part(int rows, const int *work, int parts, int c, int *r0, int *r1)
{
    long long total = (long long)work[rows] - work[0] + rows;
    *r0 = split_at(rows, work, total * c / parts);
    *r1 = c + 1 == parts ? rows : split_at(rows, work, total * (c + 1) / parts);
}

void cb_parallel_rows_by(int rows, const int *work, cb_rows_fn fn, void *ctx)
{
    int threads = cb_threads_for(rows);
    if (threads == 1) {
        fn(ctx, 0, rows);
        return;
    }
    CB_OMP(omp parallel for num_threads(threads) schedule(static))
    for (int c = 0; c < threads; c++) {
        int r0, r1;
        cb_parallel_part(rows, work, threads, c, &r0, &r1);
        fn(ctx, r0, r1);
    }
}

int cb_par_nchunks(int rows) { return rows > 0 ? (rows - 1) / CB_PAR_CHUNK + 1 : 0; }

void cb_parallel_chunks(int rows, cb_rows_fn fn, void *ctx)
{
    int threads = cb_threads_for(rows), chunks = cb_par_nchunks(rows);
    if (threads == 1) {
        fn(ctx, 0, rows);
        return;
    }
    CB_OMP(omp parallel for num_threads(threads) schedule(static))
    for (int c = 0; c < threads; c++) {
        long long r0 = (long long)chunks * c / threads * CB_PAR_CHUNK;
        long long r1 = (long long)chunks * (c + 1) / threads * CB_PAR_CHUNK;
        fn(ctx, (int)(r0 < rows ? r0 : rows), (int)(r1 < rows ? r1 : rows));
    }
}

/* r rounded to the nearest multiple of CB_PAR_CHUNK, at most rows. */
static int chunk_round(int r, int rows)
{
    long long c = ((long long)r + CB_PAR_CHUNK / 2) / CB_PAR_CHUNK * CB_PAR_CHUNK;
    return c < rows ? (int)c : rows;
}

void cb_parallel_chunks_by(int rows, const int *work, cb_rows_fn fn, void *ctx)
{
    int threads = cb_threads_for(rows);
    if (threads == 1 || !work) {
        cb_parallel_chunks(rows, fn, ctx);
        return;
    }
    CB_OMP(omp parallel for num_threads(threads) schedule(static))
    for (int c = 0; c < threads; c++) {
        int r0, r1; /* part c ends where part c + 1 starts: rounded alike */
        cb_parallel_part(rows, work, threads, c, &r0, &r1);
        r0 = c == 0 ? 0 : chunk_round(r0, rows);
        r1 = c + 1 == threads ? rows : chunk_round(r1, rows);
        if (r0 < r1)
            fn(ctx, r0, r1);
    }
}
