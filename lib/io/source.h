/*
 * Byte sources for the reader: a file descriptor or a memory buffer,
 * inflated on the fly when the bytes start with the gzip magic.
 */
#ifndef EVTOOL_LIB_SOURCE_H
#define EVTOOL_LIB_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "evtool/common.h"
#include "evtool/reader.h"

typedef struct evi_source evi_source;

/* Opens a source over `fd` (closed at free when `close_fd`) or over
 * `len` bytes at `mem` (when fd < 0). `digest` hashes every stored byte. */
int evi_source_open(evi_source **out, int fd, int close_fd,
		    const uint8_t *mem, size_t len, int digest, int raw,
		    ev_diag *diag);

/* Opens a source over the bytes `fn` gives (ev_reader_open_fn). */
int evi_source_open_fn(evi_source **out, ev_read_fn fn, void *ctx,
		       int digest, int raw, ev_diag *diag);

void evi_source_free(evi_source *s);

/* Reads up to `cap` bytes of log data into `dst`. *got == 0 means no data
 * is available now (end of input so far); a later call may find more. */
int evi_source_read(evi_source *s, uint8_t *dst, size_t cap, size_t *got);

/* When the source is an uncompressed memory buffer, points *data at the
 * whole of it and returns 1, so the reader can parse in place. */
int evi_source_memory(const evi_source *s, const uint8_t **data,
		      size_t *len);

/* The file descriptor of a source over one that has not read from it
 * yet, else -1: for mapping a regular file (blocks.c). *digest: whether
 * the source was asked for the digest. */
int evi_source_unread_fd(const evi_source *s, int *digest);

/* Nonzero once the input is known to be gzip. */
int evi_source_is_gzip(const evi_source *s);

/* Nonzero when gzip input stopped inside a gzip member. */
int evi_source_gzip_incomplete(const evi_source *s);

/* Stored bytes consumed so far. */
uint64_t evi_source_input_bytes(const evi_source *s);

/* Stored bytes from where the source started to the end of its file: a
 * progress total. 0 for a pipe, a device or memory. */
uint64_t evi_source_stored_size(const evi_source *s);

/* Reads all remaining stored bytes and gives the xxh3-64 of all of them. */
int evi_source_digest(evi_source *s, uint64_t *out);

#endif
