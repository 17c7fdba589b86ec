/* ---- deciding event by event (ev_filter_run drives these) ---- */

/** Learning passes the filter needs before evi_filter_apply(): 0, 1, or
 *  2 when a marker window has both ends. */
unsigned evi_filter_learning_passes(const ev_filter *f);

/**
 * Feeds one event of learning pass `pass` (0-based): every event of
 * every session, in file order, block markers included or not.
 * `session` is the 0-based session (ev_reader_session()).
 */
int evi_filter_learn(ev_filter *f, unsigned pass, unsigned session,
			   const ev_event *ev);

/**
 * Ends learning pass `pass`. After the last one it resolves the times
 * and windows of every session: EV_EINVAL when a wall-clock time was
 * given and a session has no WALL_CLOCK_TIME.
 */
int evi_filter_end_learning(ev_filter *f, unsigned pass);

/**
 * Decides one event of `session`: 1 to keep it, with `out` set to the
 * event to write (a copy of `ev`, or for redaction one whose payload the
 * filter owns until the next call), 0 to drop it. Block markers are
 * always dropped: the output is re-blocked.
 */
int evi_filter_apply(ev_filter *f, unsigned session, const ev_event *ev,
			   ev_event *out);

#endif
