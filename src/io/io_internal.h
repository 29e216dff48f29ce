/* conebench — internal interfaces between the file-format modules of problems/ (not installed). */
#ifndef CONEBENCH_IO_INTERNAL_H
#define CONEBENCH_IO_INTERNAL_H

#include "conebench/io.h"

/* FCLIB group names, and the dataset of conebench's local rolling extension that names the
 * cone kind (a fixed-length string such as "rolling3d" in /fclib_local; io_fclib_write.c). */
#define CB_FCLIB_GROUP_LOCAL "fclib_local"
#define CB_FCLIB_GROUP_GLOBAL "fclib_global"
#define CB_FCLIB_GROUP_ROLLING "fclib_global_rolling"
#define CB_FCLIB_KIND_DATASET "conebench_kind"

/* Siconos text (local d/nc/NumericsMatrix/q/μ[/μ_r[/μ_s]] or global GRFC3D), from a NUL-terminated
 * buffer holding the file `path` (used in messages). Global files are condensed. */
int cb_read_siconos_text(const char *path, const char *text, size_t len,
                         const cb_read_settings *s, cb_problem **out, cb_error *err);
/* The same from a buffer the caller gives up: the pages of W's text already parsed are released
 * while reading (cb_buffer_release), so the text and W are not both resident in full. The caller
 * may only free text afterwards. */
int cb_read_siconos_consume(const char *path, char *text, size_t len, const cb_read_settings *s,
                            cb_problem **out, cb_error *err);

/* FCLIB HDF5 (fclib_local, fclib_global, fclib_global_rolling); global ones are condensed.
 * Messages are "FILE: what" (an HDF5 file has no lines). In this process: HDF5 may crash on a
 * damaged file (cb_read_problem uses the isolated reader below). */
int cb_read_fclib(const char *path, const cb_read_settings *s, cb_problem **out, cb_error *err);

/* cb_read_fclib in a child process (io_child.c): a child that dies becomes the input error
 * "FILE: the HDF5 library failed on this file (damaged?)"; the problem it sends is checked. */
int cb_read_fclib_isolated(const char *path, const cb_read_settings *s, cb_problem **out,
                           cb_error *err);

#endif
