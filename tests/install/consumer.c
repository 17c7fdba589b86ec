/* A program outside the project that links the installed libevtool: it
 * counts the events of a log and prints the count and the GHC version's
 * first declared type, proving headers and library work together. */
#include <stdio.h>

#include <evtool/evtool.h>

int main(int argc, char **argv)
{
	ev_reader *r;
	ev_event ev;
	unsigned long long events = 0;
	int rc;

	if (argc != 2 || ev_reader_open_path(&r, argv[1], 0, NULL) != EV_OK)
		return 2;
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		events += ev.type != EV_BLOCK_MARKER;
	printf("%llu events, %s, libevtool %s\n", events,
	       rc == EV_END ? "complete" : ev_reader_diag(r)->message,
	       ev_version());
	ev_reader_free(r);
	return rc == EV_END ? 0 : 1;
}
