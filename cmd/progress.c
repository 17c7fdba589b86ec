/*
 * The progress bar (progress.h).
 */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Redraws per second at most, and the width when the terminal's is not
 * known. */
#define REDRAW_NS (250 * 1000000L)
#define DEFAULT_WIDTH 80u
/* Narrower than this, the bar itself is left out. */
#define MIN_BAR 10u

static cli_progress *active;

const char *progress_bytes(double bytes, char *out, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;

	while (bytes >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
		bytes /= 1024;
		u++;
	}
	snprintf(out, len, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
	return out;
}

static void clock_time(char *out, size_t cap, double seconds)
{
	unsigned long s = seconds > 0 ? (unsigned long)(seconds + 0.5) : 0;

	if (s >= 3600)
		snprintf(out, cap, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(out, cap, "%lu:%02lu", s / 60, s % 60);
}

size_t progress_format(char *out, size_t cap, const char *label,
		       uint64_t done, uint64_t total, double seconds,
		       unsigned width)
{
	char done_s[16], total_s[16], rate_s[16], left_s[24], stats[96];
	double rate = seconds > 0 ? (double)done / seconds : 0;
	int n;

	if (cap == 0)
		return 0;
	progress_bytes((double)done, done_s, sizeof done_s);
	progress_bytes(rate, rate_s, sizeof rate_s);
	if (total == 0) {
		n = snprintf(out, cap, "%s %s %s/s", label, done_s, rate_s);
		return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
	}
	if (done > total) /* an estimate fell short */
		total = done;
	progress_bytes((double)total, total_s, sizeof total_s);
	if (rate > 0)
		clock_time(left_s, sizeof left_s, (double)(total - done) / rate);
	else
		snprintf(left_s, sizeof left_s, "-:--");
	snprintf(stats, sizeof stats, "%s/%s %s/s %s left", done_s, total_s,
		 rate_s, left_s);

	unsigned percent = (unsigned)(done * 100.0 / (double)total);
	size_t fixed = strlen(label) + strlen(" 100% [] ") + strlen(stats);
	unsigned bar = width > fixed ? (unsigned)(width - fixed) : 0;

	if (bar < MIN_BAR) {
		n = snprintf(out, cap, "%s %3u%% %s", label, percent, stats);
	} else {
		char cells[512];
		unsigned full;

		if (bar >= sizeof cells)
			bar = sizeof cells - 1;
		full = (unsigned)((double)bar * (double)done / (double)total);
		memset(cells, ' ', bar);
		memset(cells, '=', full);
		if (full < bar && full > 0)
			cells[full - 1] = '>';
		cells[bar] = '\0';
		n = snprintf(out, cap, "%s %3u%% [%s] %s", label, percent,
			     cells, stats);
	}
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static double seconds_between(const struct timespec *a,
			      const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static unsigned terminal_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return DEFAULT_WIDTH;
}

void progress_start(cli_progress *p, const char *label, int no_progress)
{
	const char *delay = getenv("EVTOOL_PROGRESS_DELAY");
	long wait_ms = delay && *delay ? (long)(atof(delay) * 1000) : 1000;

	memset(p, 0, sizeof *p);
	p->on = !no_progress && isatty(STDERR_FILENO);
	p->label = label;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->next = p->start;
	p->next.tv_sec += wait_ms / 1000;
	p->next.tv_nsec += wait_ms % 1000 * 1000000L;
	if (p->next.tv_nsec >= 1000000000L) {
		p->next.tv_sec++;
		p->next.tv_nsec -= 1000000000L;
	}
	if (p->on)
		active = p;
}

void progress_update(void *ctx, uint64_t done, uint64_t total)
{
	cli_progress *p = ctx;
	struct timespec now;
	char line[600];
	unsigned width;
	size_t len;

	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec < p->next.tv_sec ||
	    (now.tv_sec == p->next.tv_sec && now.tv_nsec < p->next.tv_nsec))
		return;
	p->next = now;
	p->next.tv_nsec += REDRAW_NS;
	if (p->next.tv_nsec >= 1000000000L) {
		p->next.tv_sec++;
		p->next.tv_nsec -= 1000000000L;
	}
	/* One column short: a full line would wrap on some terminals. */
	width = terminal_width();
	width = width > 1 ? width - 1 : width;
	len = progress_format(line, sizeof line, p->label, done, total,
			      seconds_between(&p->start, &now),
			      width < sizeof line ? width : sizeof line - 1);
	if (len > width)
		len = width;
	/* "\r" back to the start of the line, "\033[K" erases the rest. */
	fprintf(stderr, "\r%.*s\033[K", (int)len, line);
	fflush(stderr);
	p->drawn = 1;
}

static void erase(cli_progress *p)
{
	if (p && p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->drawn = 0;
	}
}

void progress_clear(void)
{
	erase(active);
}

void progress_end(cli_progress *p)
{
	erase(p);
	p->on = 0;
	if (active == p)
		active = NULL;
}
