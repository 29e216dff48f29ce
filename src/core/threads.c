/* conebench — the thread count of the current run (base.h). */
#include "base.h"

static _Thread_local int run_threads = 1; /* per calling thread: runs in threads do not mix */

int cb_threads(void) { return run_threads; }

int cb_threads_set(int n)
{
    int old = run_threads;
    run_threads = n < 1 ? 1 : n;
    return old;
}
