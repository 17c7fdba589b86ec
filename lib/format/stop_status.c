/*
 * STOP_THREAD status codes as ghc-events reads, shows and names them
 * (ghc-events mkStopStatus, mkStopStatus782, showThreadStopStatus and the
 * ThreadStopStatus constructors).
 *
 * The numbering a log uses is a header quirk (EVI_QUIRK_GHC782, set by
 * header.c); every reader of a status passes the header's quirks to
 * evi_stop_status.
 *
 * Layering: lib/format, called by show (show.c, show_json.c), stats
 * (stats_threads.c) and export (export_tef.c); it calls nothing.
 */
#include <stdint.h>

#include "evtool/header.h"
#include "internal.h"

/* ghc-events' mkStopStatus and showThreadStopStatus, by status code. 18
 * is the RTS's BlockedOnMsgThrowTo (why_blocked 12 + 6), which current
 * ghc-events shows as such; 16 is its code in older GHCs. */
static const char *const stop_texts[] = {
	"No stop thread status", "heap overflow", "stack overflow",
	"thread yielding", "thread blocked", "thread finished",
	"making a foreign call", "blocked on an MVar",
	"blocked on a black hole", "blocked on I/O read",
	"blocked on I/O write", "blocked on threadDelay",
	"blocked in STM retry", "blocked on asyncDoProc",
	"blocked in a foreign call", "blocked in a foreign call",
	"blocked in throwTo", "thread migrating", "blocked in throwTo",
	"No stop thread status", "blocked reading an MVar"
};

const char *evi_stop_status_text(unsigned status)
{
	if (status >= sizeof stop_texts / sizeof stop_texts[0])
		status = 0;
	return stop_texts[status];
}

/* GHC 7.8.2's codes mapped to the usual ones (ghc-events
 * mkStopStatus782): it inserted BlockedOnMVarRead at 8. */
static const uint8_t ghc782_codes[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 20, 8, 9, 10, 11, 12, 13, 0, 14, 15, 16, 17
};

/* ghc-events' ThreadStopStatus constructors, by the same codes, with the
 * lengths of their names. */
#define STOP(name) { name, sizeof(name) - 1 }
static const evi_stop_name stop_names[] = {
	STOP("NoStatus"), STOP("HeapOverflow"), STOP("StackOverflow"),
	STOP("ThreadYielding"), STOP("ThreadBlocked"), STOP("ThreadFinished"),
	STOP("ForeignCall"), STOP("BlockedOnMVar"), STOP("BlockedOnBlackHole"),
	STOP("BlockedOnRead"), STOP("BlockedOnWrite"), STOP("BlockedOnDelay"),
	STOP("BlockedOnSTM"), STOP("BlockedOnDoProc"), STOP("BlockedOnCCall"),
	STOP("BlockedOnCCall_NoUnblockExc"), STOP("BlockedOnMsgThrowTo"),
	STOP("ThreadMigrating"), STOP("BlockedOnMsgThrowTo"), STOP("NoStatus"),
	STOP("BlockedOnMVarRead")
};
#undef STOP

_Static_assert(sizeof stop_names / sizeof stop_names[0] ==
		       EVI_STOP_STATUSES &&
	       sizeof stop_texts / sizeof stop_texts[0] == EVI_STOP_STATUSES,
	       "a name and a text for every status");

/* A STOP_THREAD status code as ghc-events reads it: 0 to 20. */
unsigned evi_stop_status(uint64_t code, unsigned quirks)
{
	if (quirks & EVI_QUIRK_GHC782)
		code = code < sizeof ghc782_codes ? ghc782_codes[code] : 0;
	return code < sizeof stop_texts / sizeof stop_texts[0]
		       ? (unsigned)code : 0;
}

const char *evi_stop_status_name(uint64_t code, int has_info,
				 unsigned quirks)
{
	unsigned status = evi_stop_status(code, quirks);

	if (status == 8 && has_info)
		return "BlockedOnBlackHoleOwnedBy";
	return stop_names[status].name;
}

const evi_stop_name *evi_stop_status_constructor(unsigned status)
{
	if (status >= sizeof stop_names / sizeof stop_names[0])
		status = 0;
	return &stop_names[status];
}
