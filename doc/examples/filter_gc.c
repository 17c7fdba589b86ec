/*
 * filter_gc: copies the garbage-collector events of a GHC eventlog, with
 * the metadata that readers need, into a new log.
 *
 *     cc filter_gc.c $(pkg-config --cflags --libs evtool) -o filter_gc
 *     ./filter_gc run.eventlog gc.eventlog
 *
 * Exit 0 when the output is written, 1 otherwise (with a message).
 */
#include <stdio.h>

#include <evtool/evtool.h>

/* GC events, and the ones that say which process and capabilities they
 * belong to. */
static int keep(const ev_event *ev)
{
	ev_class cls = ev_type_class(ev->type);

	return (cls & (EV_CLASS_GC | EV_CLASS_META | EV_CLASS_CAP)) != 0;
}

int main(int argc, char **argv)
{
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;
	ev_reader *r = NULL;
	ev_sink *sink = NULL;
	ev_writer *w = NULL;
	ev_diag why; /* a constructor's failure */
	ev_event ev;
	int rc, ok = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: filter_gc IN OUT\n");
		return 1;
	}
	if (ev_reader_open_path(&r, argv[1], 0, &why) < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], why.message);
		return 1;
	}
	if (ev_reader_read_header(r) < 0) {
		fprintf(stderr, "%s: %s\n", argv[1],
			ev_reader_diag(r)->message);
		ev_reader_free(r);
		return 1;
	}
	/* The output appears only at ev_sink_commit(): a temporary file
	 * beside OUT until then. */
	if (ev_sink_open_path(&sink, argv[2], &why) < 0) {
		fprintf(stderr, "%s: %s\n", argv[2], why.message);
		ev_reader_free(r);
		return 1;
	}
	/* Dropping events leaves the input's blocks wrong: make new ones. */
	opts.mode = EV_WRITE_REBLOCK;
	if (ev_writer_open(&w, sink, ev_reader_header(r), &opts, &why) < 0) {
		fprintf(stderr, "%s: %s\n", argv[2], why.message);
	} else {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK)
			if (keep(&ev) && ev_writer_write(w, &ev) < 0)
				break;
		/* EV_END: the input's data end. (A log of several sessions
		 * would go on with ev_reader_next_session.) */
		if (rc == EV_OK)
			fprintf(stderr, "%s: %s\n", argv[2],
				ev_writer_diag(w)->message);
		else if (rc != EV_END)
			fprintf(stderr, "%s: offset %llu: %s\n", argv[1],
				(unsigned long long)ev_reader_diag(r)->offset,
				ev_reader_diag(r)->message);
		else if (ev_writer_finish(w) < 0 || ev_sink_commit(sink) < 0)
			fprintf(stderr, "%s: cannot write\n", argv[2]);
		else
			ok = printf("%llu events kept\n", (unsigned long long)
				    ev_writer_events(w)) > 0;
	}
	ev_writer_free(w);
	ev_sink_free(sink); /* removes the temporary file if not committed */
	ev_reader_free(r);
	return ok ? 0 : 1;
}
