/*
 * evtool: the processes of a log, from their capset events.
 *
 * Each GHC runtime announces itself through an OS-process capset
 * (CAPSET_CREATE of type EV_CAPSET_OS_PROCESS), against which it posts
 * OSPROCESS_PID, OSPROCESS_PPID, RTS_IDENTIFIER and PROGRAM_ARGS, and
 * assigns its capabilities (CAPSET_ASSIGN_CAP). Its WALL_CLOCK_TIME goes to
 * its clock-domain capset, which shares its capabilities. A log has one
 * process; a merged log (`evtool merge`) one per input; a restarted stream
 * one per session.
 *
 *     ev_process_list *pl;
 *     ev_process_list_new(&pl, NULL);
 *     for each event: ev_process_list_add(pl, &ev);
 *     at each new session: ev_process_list_next_session(pl);
 *     ev_process_list_finish(pl);
 *     for (size_t i = 0; i < ev_process_list_count(pl); i++)
 *             use(ev_process_list_at(pl, i));
 *     ev_process_list_free(pl);
 */
#ifndef EVTOOL_PROCESS_H
#define EVTOOL_PROCESS_H

#include "common.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An accumulator of a log's processes (opaque). */
typedef struct ev_process_list ev_process_list;

/** One process: an OS-process capset, or a capset of no declared type
 *  that carries a pid, arguments or an RTS identifier. */
typedef struct ev_process {
	unsigned session;         /**< 0-based session of the stream */
	uint32_t capset;
	int have_start;
	uint64_t start_ns;        /**< time of its CAPSET_CREATE (log clock) */
	int have_pid, have_ppid;
	uint32_t pid, ppid;
	const char *rts;          /**< RTS_IDENTIFIER text, NULL without */
	size_t rts_len;
	/** PROGRAM_ARGS' strings, NUL-separated; NULL without */
	const char *args;
	size_t args_len;
	int have_wall;
	/** Unix time (ns) at the log's time 0, by its WALL_CLOCK_TIME (its
	 *  own or its clock domain's): its wall-clock start is this plus
	 *  start_ns. */
	uint64_t wall_epoch_ns;
	size_t n_caps;
	const uint16_t *caps;     /**< its capabilities, ascending */
} ev_process;

/** A new, empty accumulator. EV_OK or EV_ENOMEM. */
EV_API int ev_process_list_new(ev_process_list **out, ev_diag *diag);

/** Frees an accumulator; NULL is fine. */
EV_API void ev_process_list_free(ev_process_list *pl);

/**
 * Adds one event, in file order (all events may be given; only capset
 * events are looked at). EV_OK; EV_ENOMEM; EV_ELIMIT for more than
 * EV_PROCESS_MAX_CAPSETS capsets, after which further capsets are
 * ignored (the list stays usable); EV_EFORMAT when a capset's first
 * WALL_CLOCK_TIME is not a clock reading (ev_wall_clock_epoch(), message
 * and offset in ev_process_list_diag()): that capset keeps no wall clock,
 * and the list stays usable.
 */
EV_API int ev_process_list_add(ev_process_list *pl, const ev_event *ev);

/** The events that follow belong to the next session of the stream,
 *  whose capset ids start afresh. */
EV_API void ev_process_list_next_session(ev_process_list *pl);

/** Computes the list from what was added; call once, after the last
 *  event. EV_OK or EV_ENOMEM. */
EV_API int ev_process_list_finish(ev_process_list *pl);

/** Number of processes after ev_process_list_finish, in order of
 *  session, then capset. */
EV_API size_t ev_process_list_count(const ev_process_list *pl);

/** Process `i`, or NULL out of range; owned by `pl`. */
EV_API const ev_process *ev_process_list_at(const ev_process_list *pl,
					    size_t i);

/** What the last EV_EFORMAT of ev_process_list_add() was about (offset,
 *  message); owned by `pl`. */
EV_API const ev_diag *ev_process_list_diag(const ev_process_list *pl);

/** Capsets an accumulator keeps at most (about 8 KB each with caps). */
#define EV_PROCESS_MAX_CAPSETS 1024u

#ifdef __cplusplus
}
#endif

#endif
