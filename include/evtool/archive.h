/*
 * evtool: gzip archives of eventlogs that carry the log's xxh3-64 digest.
 *
 * An archive is a standard gzip file (RFC 1952): a series of gzip
 * members, one per chunk of the log (1 MiB by default), which gzip, zcat,
 * pigz, zlib and every evtool command read as one stream. Each member's
 * header has an extra field (FEXTRA) with one subfield, id 'E' 'V', of 9
 * bytes: a kind byte and the xxh3-64 digest of the whole uncompressed
 * log, big-endian. A log in one member is of kind EV_ARCHIVE_KIND_WHOLE;
 * a log in several is one member of kind EV_ARCHIVE_KIND_FIRST, any
 * number of EV_ARCHIVE_KIND_MIDDLE and one EV_ARCHIVE_KIND_LAST, which
 * all repeat the digest of their whole content. Gzip and zlib skip extra
 * subfields they do not know. MTIME is 0 unless asked for, there is no file name, so the
 * same log always gives the same archive.
 *
 * The writer compresses the chunks in parallel with libdeflate, each as
 * a whole (no dictionary from the chunk before: libdeflate has none; it
 * compresses smaller than zlib at the same speed, which more than makes
 * up for it). The chunking does not depend on the number of threads: one
 * thread and sixteen write the same bytes.
 *
 * The archive reader inflates member after member and checks, for each,
 * the CRC-32 and length in its trailer, and for each log the digest of
 * its members' content. A log's members out of order or mixed with other
 * members (lost, reordered or foreign members) are an error, and so is an
 * archive that ends before its log's last member (cut short).
 */
#ifndef EVTOOL_ARCHIVE_H
#define EVTOOL_ARCHIVE_H

#include "common.h"
#include "reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The extra-field subfield holding the digest (RFC 1952 FEXTRA). */
#define EV_ARCHIVE_SUBFIELD_ID1 'E' /**< the subfield id's first byte */
#define EV_ARCHIVE_SUBFIELD_ID2 'V' /**< the subfield id's second byte */
#define EV_ARCHIVE_KIND_WHOLE 1  /**< kind byte: a log in this one member */
#define EV_ARCHIVE_KIND_FIRST 2  /**< kind byte: a log's first member of several */
#define EV_ARCHIVE_KIND_MIDDLE 3 /**< kind byte: neither its first nor last */
#define EV_ARCHIVE_KIND_LAST 4   /**< kind byte: a log's last member */

/** Compression level when none is given (gzip's default). */
#define EV_ARCHIVE_DEFAULT_LEVEL 6
/** Uncompressed bytes per gzip member (chunk) by default. */
#define EV_ARCHIVE_DEFAULT_CHUNK (1u << 20)
/** Smallest chunk: smaller ones would compress badly. */
#define EV_ARCHIVE_MIN_CHUNK (64u * 1024u)
/** Most compression threads a writer accepts. */
#define EV_ARCHIVE_MAX_THREADS 64u

/** Archive writer options; initialise with EV_ARCHIVE_OPTIONS_INIT. */
typedef struct ev_archive_options {
	unsigned version;    /**< EV_ARCHIVE_OPTIONS_VERSION */
	int level;           /**< 1 fastest .. 9 smallest, no larger than
				  `gzip -N`; 0 means 6 */
	unsigned threads;    /**< 0 means ev_archive_default_threads() */
	uint32_t chunk_size; /**< 0 means EV_ARCHIVE_DEFAULT_CHUNK */
	uint32_t mtime;      /**< gzip MTIME (Unix seconds); 0 for none */
} ev_archive_options;

/** The layout of ev_archive_options this header describes. */
#define EV_ARCHIVE_OPTIONS_VERSION 1
/** The default archive writer options. */
#define EV_ARCHIVE_OPTIONS_INIT { EV_ARCHIVE_OPTIONS_VERSION, 0, 0, 0, 0 }

/** The online processors, at least 1 and at most 8. */
EV_API unsigned ev_archive_default_threads(void);

/**
 * Opens a sink that writes what it is given to `target` as an archive
 * (as `evtool archive` writes one), for a producer that cannot hash the log first
 * (a command writing its output): the compressed members wait in an
 * unnamed temporary file in `tmpdir` (NULL: $TMPDIR, else /tmp), and
 * ev_sink_commit() copies them to `target`, each member's header holding
 * the digest of the bytes written, then commits `target`. The archive is
 * the bytes ev_archive_compress_fd would write with that digest.
 * The new sink owns `target` from the call on, even when it fails:
 * ev_sink_free() frees both, and ev_sink_temp_path() is target's.
 * ev_sink_bytes() counts the uncompressed bytes. `opts` may be NULL.
 */
EV_API int ev_sink_open_archive(ev_sink **out, ev_sink *target,
				const char *tmpdir,
				const ev_archive_options *opts, ev_diag *diag);

/**
 * Nonzero when the `len` bytes at `data` start a gzip member (its two
 * magic bytes), as every reader of evtool recognises one.
 */
EV_API int ev_is_gzip(const void *data, size_t len);

/** An inflating, verifying archive reader (opaque). */
typedef struct ev_archive_reader ev_archive_reader;

/** What an archive reader has seen so far. */
typedef struct ev_archive_stats {
	uint64_t stored_bytes;   /**< compressed bytes consumed */
	uint64_t log_bytes;      /**< uncompressed bytes delivered */
	unsigned members;        /**< gzip members started */
	unsigned digests;        /**< logs with a digest (their first members) */
	unsigned digested;       /**< members of those logs */
	uint64_t stored_digest;  /**< the first such member's digest */
	uint64_t content_digest; /**< xxh3-64 of every byte delivered */
} ev_archive_stats;

/** Opens `path` ("-" for standard input). EV_EIO when it cannot be
 *  opened, with `diag` (may be NULL) saying why. */
EV_API int ev_archive_reader_open_path(ev_archive_reader **out,
				       const char *path, ev_diag *diag);

/** Reads from `fd`, which stays the caller's; `name` is for messages. */
EV_API int ev_archive_reader_open_fd(ev_archive_reader **out, int fd,
				     const char *name, ev_diag *diag);

/**
 * Reads up to `cap` bytes of the log into `dst`. EV_OK: *got > 0 bytes.
 * EV_END: the archive ended cleanly after a complete member, and every
 * member's CRC-32 and length and every digest matched. EV_ETRUNCATED: the input
 * ends inside a member. EV_EFORMAT: not gzip, corrupt data, a CRC-32,
 * length or digest mismatch, or other bytes after the gzip data. Good
 * bytes before a problem are delivered first; the diagnostic's offset is
 * the stored (compressed) offset where the problem was seen.
 */
EV_API int ev_archive_reader_read(ev_archive_reader *r, void *dst, size_t cap,
				  size_t *got);

/** Counters and digests so far: of the bytes read, or, while a large
 *  archive is read ahead in a thread, once reading has ended. */
EV_API const ev_archive_stats *
ev_archive_reader_result(const ev_archive_reader *r);

/** Frees a reader; NULL is fine. */
EV_API void ev_archive_reader_free(ev_archive_reader *r);

/** Details of the last failure. */
EV_API const ev_diag *ev_archive_reader_diag(const ev_archive_reader *r);

/**
 * Reads all of an archive from `fd` (which stays the caller's), checking
 * it as ev_archive_reader_read does and discarding the log. Returns EV_OK
 * when the archive is intact (members without a digest are allowed: see
 * stats->digests), else the reader's status. `stats` and `diag` (either
 * may be NULL) receive the counters and the failure.
 */
EV_API int ev_archive_check_fd(int fd, const char *name,
			       ev_archive_stats *stats, ev_diag *diag);

/**
 * Whether the log `r` reads (from its start) is one an archive should
 * hold: valid as `evtool validate` sees it with its default checks
 * (warnings do not count), stopping at the first error. Returns and
 * sets verdict->status: EV_END when valid; EV_ETRUNCATED or EV_EFORMAT
 * for the first error (verdict->offset and ->message say where and
 * what); or the error of reading the log (EV_EIO, EV_ENOMEM, ...).
 */
EV_API int ev_archive_check_log(ev_reader *r, ev_diag *verdict);

/** What ev_archive_scan_fd found. */
typedef struct ev_archive_scan {
	/** ev_archive_check_log's verdict; status EV_OK (0) when the log
	 *  could not be opened */
	ev_diag verdict;
	/** a failure to open or to read the log to its end (origin
	 *  EV_ORIGIN_INPUT); status EV_OK (0) when none */
	ev_diag read;
	uint64_t digest;    /**< xxh3-64 of every byte read, as stored */
	uint64_t log_bytes; /**< how many bytes that is */
} ev_archive_scan;

/**
 * The first pass of archiving the log on `fd` (which stays the caller's),
 * from where it stands to its end: checks it with ev_archive_check_log
 * and, when it is valid, or with `force` when its first error is a
 * truncation or a malformed event, hashes all of it (the digest the
 * archive's headers carry), reporting the stored bytes read to `fn`
 * (NULL: none). Returns the verdict's status (EV_END: valid), or the
 * negative status of a failure to open the log or to read it to its end
 * (out->read).
 */
EV_API int ev_archive_scan_fd(int fd, const char *name, int force,
			      ev_progress_fn fn, void *ctx,
			      ev_archive_scan *out);

/**
 * The second pass: compresses all of `fd` (which stays the caller's; read
 * from its start) into an archive in `sink` whose headers hold `digest`,
 * reporting the bytes read, out of the file's size (0 for a pipe), to
 * `fn` (NULL: none). EV_OK, or a failure described in *diag: of the
 * input (EV_ORIGIN_INPUT, EV_EIO: it cannot be read, or its bytes no
 * longer match `digest`: it changed since the first pass), or of the
 * output (EV_ORIGIN_OUTPUT, as the writer reports it). `opts` may be NULL
 * for the defaults; a level outside 1-9, more than EV_ARCHIVE_MAX_THREADS
 * threads or a chunk smaller than EV_ARCHIVE_MIN_CHUNK is EV_EINVAL.
 */
EV_API int ev_archive_compress_fd(int fd, ev_sink *sink, uint64_t digest,
				  const ev_archive_options *opts,
				  ev_progress_fn fn, void *ctx, ev_diag *diag);

/** What ev_archive_test_fd found. */
typedef struct ev_archive_test {
	ev_archive_stats stats; /**< the members read */
	/** the gzip checks: status EV_OK (0), or their failure */
	ev_diag archive;
	/** the log, as ev_archive_check_log's verdict: status EV_END when
	 *  valid */
	ev_diag log;
} ev_archive_test;

/**
 * Tests the archive on `fd` (which stays the caller's) in one read: its
 * members are inflated and checked as ev_archive_check_fd does while its
 * log is checked by ev_archive_check_log from the bytes they give; the
 * members after the log's verdict are checked too. Returns
 * out->archive.status when the gzip checks failed, else out->log.status
 * (EV_END: an intact archive of a valid log).
 */
EV_API int ev_archive_test_fd(int fd, const char *name, ev_archive_test *out);

#ifdef __cplusplus
}
#endif

#endif
