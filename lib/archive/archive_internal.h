/*
 * The archive's writer (archive_writer.c), a gzip compressor with the
 * log's digest in its members' headers, for the archive's own files: the
 * public doors to it are ev_archive_compress_fd (a file hashed first) and
 * ev_sink_open_archive (a producer that cannot hash first); not
 * installed.
 */
#ifndef EVTOOL_LIB_ARCHIVE_INTERNAL_H
#define EVTOOL_LIB_ARCHIVE_INTERNAL_H

#include "evtool/archive.h"

/* A gzip compressor with the log's digest in its header (opaque). */
typedef struct evi_archive_writer evi_archive_writer;

/*
 * Starts an archive in `sink` (which stays the caller's) whose headers
 * hold `digest`, the xxh3-64 of all the bytes that will be written.
 * `opts` may be NULL for the defaults; a level outside 1-9,
 * more than EV_ARCHIVE_MAX_THREADS threads or a chunk smaller than
 * EV_ARCHIVE_MIN_CHUNK is EV_EINVAL. Memory stays bounded: at most two
 * chunks per thread are in flight (about 2 * chunk_size each).
 */
int evi_archive_writer_open(evi_archive_writer **out, ev_sink *sink,
			    uint64_t digest, const ev_archive_options *opts,
			    ev_diag *diag);

/* Compresses `len` more bytes of the log. */
int evi_archive_writer_write(evi_archive_writer *w, const void *data,
			     size_t len);

/*
 * Compresses what is left and writes the last member. When the bytes
 * written do not hash to the digest given at open (the input changed
 * between the pass that hashed it and the one that compressed it),
 * returns EV_EINVAL before writing the last member, so that the archive
 * fails its digest check.
 */
int evi_archive_writer_finish(evi_archive_writer *w);

/* Uncompressed bytes written so far. */
uint64_t evi_archive_writer_bytes(const evi_archive_writer *w);

/* Stops the threads and frees the writer; NULL is fine. */
void evi_archive_writer_free(evi_archive_writer *w);

/* Details of the last failure. */
const ev_diag *evi_archive_writer_diag(const evi_archive_writer *w);

#endif
