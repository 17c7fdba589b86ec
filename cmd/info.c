/*
 * evtool info: what a log is (GHC version, program, caps, times) and what
 * it holds (events per type, class and capability), in one pass.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "json.h"

const cli_option info_options[] = {
	{ "json", 0, NULL, "print one JSON object (schema_version 1)" },
	{ NULL, 0, NULL, NULL }
};

#define INFO_SCHEMA_VERSION 1
#define N_CLASSES 15
#define MAX_CAPSETS 64
#define MAX_LISTED_SESSIONS 256

typedef struct cap_stats {
	uint64_t events;
	unsigned session; /* 1 + the session of last_time; 0: none yet */
	uint64_t last_time;
	uint64_t inversions;
	uint64_t gc_end_inversions;
} cap_stats;

typedef struct capset_entry {
	uint32_t id;
	uint16_t type;
} capset_entry;

/* One session of the stream: header ... data end (FORMAT.md section 4). */
typedef struct session_span {
	uint64_t start, end; /* end: past the data end or the last event */
	uint64_t events;
	int status;          /* as log_info.status */
} session_span;

typedef struct log_info {
	const char *path;
	int status; /* EV_END complete, EV_ETRUNCATED, or an error */
	ev_diag diag;
	int gzip;
	uint64_t stored_bytes;
	uint64_t log_bytes;
	uint64_t digest;
	unsigned sessions;
	session_span spans[MAX_LISTED_SESSIONS];
	uint64_t blocks;
	uint64_t events;
	uint64_t first_time, last_time;
	int have_time;

	uint16_t startup_caps;

	ev_process_list *procs; /* the processes (OS-process capsets) */
	int procs_failed;       /* EV_ENOMEM while collecting them */
	ev_diag wall_problem;   /* a WALL_CLOCK_TIME that is no clock reading */
	capset_entry capsets[MAX_CAPSETS];
	unsigned n_capsets;
	uint8_t cap_seen[EV_ID_COUNT / 8];
	uint8_t foreign[EV_ID_COUNT / 8]; /* declared with another meaning */
	uint64_t per_type[EV_ID_COUNT];
	cap_stats per_cap[EV_ID_COUNT]; /* EV_NO_CAP: global or no block */
} log_info;

/* ---- collecting ---- */

static void mark_cap(log_info *li, uint16_t cap)
{
	if (cap != EV_NO_CAP)
		li->cap_seen[cap / 8] |= (uint8_t)(1u << (cap % 8));
}

static int cap_is_seen(const log_info *li, unsigned cap)
{
	return li->cap_seen[cap / 8] & (1u << (cap % 8));
}

static int is_foreign(const log_info *li, unsigned id)
{
	return li->foreign[id / 8] & (1u << (id % 8));
}

static void add_capset(log_info *li, uint32_t id, uint16_t type)
{
	if (li->n_capsets == MAX_CAPSETS)
		return;
	for (unsigned i = 0; i < li->n_capsets; i++)
		if (li->capsets[i].id == id)
			return; /* a later session declaring it again */
	li->capsets[li->n_capsets].id = id;
	li->capsets[li->n_capsets].type = type;
	li->n_capsets++;
}

/* The integer field `name` of `d` in `out`: 1, or 0 when the payload
 * stops before it. */
static int field_num(const ev_decoded *d, const char *name, uint64_t *out)
{
	const ev_value *v = ev_decoded_field(d, name);

	if (!v)
		return 0;
	*out = v->num;
	return 1;
}

/* Capability and capset metadata, read through the catalogue's payload
 * layouts (field names as ev_catalog_layout gives them): a field that a
 * short payload does not reach is absent, and the event tells nothing.
 * The processes' own (pid, program, RTS, wall clock) are the library's
 * ev_process_list. */
static void note_metadata(log_info *li, const ev_event *ev)
{
	ev_decoded d;
	uint64_t a, b;

	switch (ev->type) {
	case EV_CAPSET_CREATE:
	case EV_CAP_CREATE:
	case EV_STARTUP:
		break;
	default:
		return; /* only these few are decoded: info is on the hot path */
	}
	if (is_foreign(li, ev->type) || !ev_decode(ev, &d))
		return;
	switch (ev->type) {
	case EV_CAPSET_CREATE:
		if (field_num(&d, "capset", &a) &&
		    field_num(&d, "capset_type", &b))
			add_capset(li, (uint32_t)a, (uint16_t)b);
		break;
	case EV_CAP_CREATE:
		if (field_num(&d, "cap", &a))
			mark_cap(li, (uint16_t)a);
		break;
	case EV_STARTUP:
		if (field_num(&d, "n_caps", &a))
			li->startup_caps = (uint16_t)a;
		break;
	default:
		break;
	}
}

static void count_event(log_info *li, const ev_event *ev)
{
	cap_stats *c = &li->per_cap[ev->cap];

	if (ev->type == EV_BLOCK_MARKER) {
		li->blocks++;
		mark_cap(li, ev->cap);
		return;
	}
	li->events++;
	li->per_type[ev->type]++;
	if (!li->have_time || ev->time < li->first_time)
		li->first_time = ev->time;
	if (!li->have_time || ev->time > li->last_time)
		li->last_time = ev->time;
	li->have_time = 1;
	/* Per capability, time should not go back (FORMAT.md section 3),
	 * except the GC_END that the RTS stamps early. */
	if (c->session == li->sessions && ev->time < c->last_time) {
		c->inversions++;
		if (ev->type == EV_GC_END)
			c->gc_end_inversions++;
	}
	c->events++;
	c->session = li->sessions; /* clocks restart with each session */
	c->last_time = ev->time;
	note_metadata(li, ev);
	if (!is_foreign(li, ev->type)) {
		int rc = ev_process_list_add(li->procs, ev);
		if (rc == EV_ENOMEM && !li->procs_failed)
			li->procs_failed = rc; /* EV_ELIMIT keeps the first */
		if (rc == EV_EFORMAT && !li->wall_problem.status)
			li->wall_problem = *ev_process_list_diag(li->procs);
	}
}

static void note_session(log_info *li, uint64_t start, uint64_t end,
			 uint64_t events, int status)
{
	session_span *s;

	if (li->sessions > MAX_LISTED_SESSIONS)
		return;
	s = &li->spans[li->sessions - 1];
	s->start = start;
	s->end = end;
	s->events = events;
	s->status = status;
}

/* Types a header declares with another meaning than GHC's (another
 * program reusing the id): counted under their id as unknown types. */
static void note_foreign_types(log_info *li, const ev_header *h)
{
	for (size_t i = 0; i < ev_header_count(h); i++) {
		uint16_t id = ev_header_at(h, i)->id;
		if (ev_catalog_find(id) && !ev_header_type_info(h, id))
			li->foreign[id / 8] |= (uint8_t)(1u << (id % 8));
	}
}

static int scan_sessions(log_info *li, ev_reader *r)
{
	uint64_t start = 0, events;
	ev_event ev;
	int rc;

	for (;;) {
		if (li->sessions++)
			ev_process_list_next_session(li->procs);
		note_foreign_types(li, ev_reader_header(r));
		events = li->events;
		while ((rc = ev_reader_next(r, &ev)) == EV_OK)
			count_event(li, &ev);
		note_session(li, start, ev_reader_offset(r), li->events - events,
			     rc);
		if (rc != EV_END)
			return rc;
		start = ev_reader_offset(r);
		rc = ev_reader_next_session(r);
		if (rc != EV_OK)
			return rc == EV_END ? EV_END : rc;
	}
}

static int collect(log_info *li, const char *path)
{
	ev_reader *r;
	int rc = cli_open_input(path, EV_READER_DIGEST, &r);

	if (rc != EXIT_OK)
		return rc;
	li->path = cli_input_name(path);
	if (ev_process_list_new(&li->procs) < 0) {
		ev_reader_free(r);
		return cli_error(EXIT_SYSTEM, "out of memory");
	}
	rc = ev_reader_read_header(r);
	li->gzip = ev_reader_is_gzip(r); /* known once bytes were read */
	li->status = rc < 0 ? rc : scan_sessions(li, r);
	if (ev_process_list_finish(li->procs) < 0 || li->procs_failed) {
		ev_reader_free(r);
		return cli_error(EXIT_SYSTEM, "%s: out of memory", path);
	}
	li->diag = *ev_reader_diag(r);
	li->log_bytes = ev_reader_offset(r);
	if (li->status == EV_ETRUNCATED && li->diag.offset < li->log_bytes)
		li->log_bytes = li->diag.offset;
	/* Read to its end, but invalid: as merge, filter and truncate say. */
	if ((li->status == EV_END || li->status == EV_ETRUNCATED) &&
	    li->wall_problem.status) {
		li->status = li->wall_problem.status;
		li->diag = li->wall_problem;
	}
	if (ev_reader_digest(r, &li->digest) < 0) {
		rc = cli_reader_error(r);
		ev_reader_free(r);
		return rc;
	}
	li->stored_bytes = ev_reader_input_bytes(r);
	ev_reader_free(r);
	return EXIT_OK;
}

/* ---- shared by both renderings ---- */

static const char *status_name(int status)
{
	if (status == EV_END)
		return "complete";
	if (status == EV_ETRUNCATED)
		return "truncated";
	return "invalid";
}

static const char *capset_type_name(uint16_t type)
{
	switch (type) {
	case EV_CAPSET_CUSTOM:
		return "custom";
	case EV_CAPSET_OS_PROCESS:
		return "os-process";
	case EV_CAPSET_CLOCK_DOMAIN:
		return "clock-domain";
	default:
		return "unknown";
	}
}

static unsigned count_caps(const log_info *li)
{
	unsigned n = 0;

	for (unsigned cap = 0; cap < EV_NO_CAP; cap++)
		n += cap_is_seen(li, cap) ? 1 : 0;
	return n;
}

static uint64_t total_inversions(const log_info *li, uint64_t *gc_end)
{
	uint64_t n = 0;

	*gc_end = 0;
	for (unsigned cap = 0; cap < EV_ID_COUNT; cap++) {
		n += li->per_cap[cap].inversions;
		*gc_end += li->per_cap[cap].gc_end_inversions;
	}
	return n;
}

static void class_counts(const log_info *li, uint64_t out[N_CLASSES])
{
	memset(out, 0, N_CLASSES * sizeof out[0]);
	for (unsigned id = 0; id < EV_ID_COUNT; id++) {
		unsigned cls = is_foreign(li, id)
				       ? (unsigned)EV_CLASS_OTHER
				       : (unsigned)ev_type_class((uint16_t)id);
		unsigned bit = 0;
		if (!li->per_type[id])
			continue;
		while (bit < N_CLASSES && !(cls & (1u << bit)))
			bit++;
		if (bit < N_CLASSES)
			out[bit] += li->per_type[id];
	}
}

static const char *type_name(const log_info *li, unsigned id)
{
	const ev_type_info *t = ev_catalog_find((uint16_t)id);
	return t && !is_foreign(li, id) ? t->name : "UNKNOWN";
}

/* ISO 8601 UTC with nanoseconds. */
static void format_wall(uint64_t epoch_ns, char *out, size_t len)
{
	time_t sec = (time_t)(epoch_ns / 1000000000u);
	struct tm tm;
	char date[32];

	gmtime_r(&sec, &tm);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, len, "%s.%09uZ", date,
		 (unsigned)(epoch_ns % 1000000000u));
}

/* ---- text ---- */

/* PROGRAM_ARGS' NUL-separated strings, separated by spaces. */
static void print_args(const char *args, size_t len)
{
	while (len > 0 && args[len - 1] == '\0')
		len--;
	for (size_t i = 0; i < len; i++)
		putchar(args[i] ? args[i] : ' ');
}

static void print_caps(const log_info *li)
{
	unsigned n = count_caps(li), shown = 0;

	printf("  %-16s %u", "capabilities", n ? n : li->startup_caps);
	for (unsigned cap = 0; cap < EV_NO_CAP && shown < 16; cap++)
		if (cap_is_seen(li, cap))
			printf("%s%u", shown++ ? " " : ": ", cap);
	puts(n > shown ? " ..." : "");
	printf("  %-16s %u", "capsets", li->n_capsets);
	for (unsigned i = 0; i < li->n_capsets; i++)
		printf("%s%" PRIu32 " (%s)", i ? ", " : ": ",
		       li->capsets[i].id,
		       capset_type_name(li->capsets[i].type));
	putchar('\n');
}

/* What one process says of itself; `indent` lines up a listed one. */
static void print_process(const ev_process *p, const char *indent)
{
	char wall[64];

	if (p->rts)
		printf("  %s%-16s %s\n", indent, "rts", p->rts);
	if (p->args) {
		printf("  %s%-16s ", indent, "program");
		print_args(p->args, p->args_len);
		putchar('\n');
	}
	if (p->have_pid) {
		printf("  %s%-16s %" PRIu32, indent, "pid", p->pid);
		if (p->have_ppid)
			printf(" (parent %" PRIu32 ")", p->ppid);
		putchar('\n');
	}
	if (p->have_wall && !*indent) {
		format_wall(p->wall_epoch_ns, wall, sizeof wall);
		printf("  %-16s %s (time 0 of the log)\n", "wall clock", wall);
	} else if (p->have_wall && p->have_start) {
		format_wall(p->wall_epoch_ns + p->start_ns, wall, sizeof wall);
		printf("  %s%-16s %s (at %" PRIu64 " ns)\n", indent, "started",
		       wall, p->start_ns);
	}
}

/* One process: its own lines. Several (a merged log, a restarted
 * stream): one block per process, under a line naming its capset,
 * session and capabilities. */
static void print_identity(const log_info *li)
{
	size_t n = ev_process_list_count(li->procs);

	if (n == 1)
		print_process(ev_process_list_at(li->procs, 0), "");
	if (n <= 1)
		return;
	printf("  %-16s %zu\n", "processes", n);
	for (size_t i = 0; i < n; i++) {
		const ev_process *p = ev_process_list_at(li->procs, i);
		printf("  process %-8zu capset %" PRIu32, i + 1, p->capset);
		if (li->sessions > 1)
			printf(" of session %u", p->session + 1);
		printf(", %zu capabilit%s", p->n_caps,
		       p->n_caps == 1 ? "y" : "ies");
		for (size_t k = 0; k < p->n_caps && k < 16; k++)
			printf("%s%u", k ? " " : ": ", p->caps[k]);
		puts(p->n_caps > 16 ? " ..." : "");
		print_process(p, "  ");
	}
}

static void print_counts(const log_info *li)
{
	uint64_t classes[N_CLASSES];

	class_counts(li, classes);
	printf("  %-16s", "by class");
	for (unsigned bit = 0; bit < N_CLASSES; bit++)
		if (classes[bit])
			printf(" %s %" PRIu64, ev_class_name((ev_class)(1u << bit)),
			       classes[bit]);
	printf("\n  %-16s", "by capability");
	for (unsigned cap = 0; cap < EV_ID_COUNT; cap++)
		if (li->per_cap[cap].events) {
			if (cap == EV_NO_CAP)
				printf(" global %" PRIu64, li->per_cap[cap].events);
			else
				printf(" %u: %" PRIu64, cap,
				       li->per_cap[cap].events);
		}
	printf("\n  by type\n");
	for (unsigned id = 0; id < EV_ID_COUNT; id++)
		if (li->per_type[id])
			printf("    %-32s %5u %12" PRIu64 "\n",
			       type_name(li, id), id, li->per_type[id]);
}

/* The sessions of a stream that holds several, one line each. */
static void print_sessions(const log_info *li)
{
	char label[32];

	for (unsigned i = 0; i < li->sessions && i < MAX_LISTED_SESSIONS; i++) {
		const session_span *s = &li->spans[i];
		snprintf(label, sizeof label, "session %u", i + 1);
		printf("  %-16s bytes %" PRIu64 " to %" PRIu64 ", %" PRIu64
		       " events, %s\n", label, s->start, s->end, s->events,
		       status_name(s->status));
	}
	if (li->sessions > MAX_LISTED_SESSIONS)
		printf("  %-16s %u more sessions\n", "...",
		       li->sessions - MAX_LISTED_SESSIONS);
}

/* The file's size as stored; then, when it differs (gzip, or a log that
 * does not end with its data end), the bytes of log that were read. */
static void print_size(const log_info *li)
{
	printf("  %-16s %" PRIu64 " bytes", "size", li->stored_bytes);
	if (li->gzip || li->log_bytes != li->stored_bytes) {
		printf(" stored%s, %" PRIu64 " bytes of log", li->gzip
		       ? " (gzip)" : "", li->log_bytes);
		if (li->status == EV_ETRUNCATED)
			printf(" to the last complete event");
		else if (li->status != EV_END)
			printf(" before the problem");
	}
	putchar('\n');
}

static void print_text(const log_info *li, int separate)
{
	uint64_t gc_end, inversions = total_inversions(li, &gc_end);

	if (separate)
		putchar('\n');
	printf("%s\n  %-16s %s", li->path, "status", status_name(li->status));
	if (li->status != EV_END)
		printf(" at offset %" PRIu64 ": %s", li->diag.offset,
		       li->diag.message);
	putchar('\n');
	print_identity(li);
	print_caps(li);
	if (li->have_time)
		printf("  %-16s first %" PRIu64 " ns, last %" PRIu64
		       " ns, duration %.6f s\n", "time", li->first_time,
		       li->last_time,
		       (double)(li->last_time - li->first_time) / 1e9);
	printf("  %-16s %" PRIu64 " in %" PRIu64 " block%s, %u session%s\n",
	       "events", li->events, li->blocks, li->blocks == 1 ? "" : "s",
	       li->sessions, li->sessions == 1 ? "" : "s");
	if (li->sessions > 1)
		print_sessions(li);
	printf("  %-16s %" PRIu64 " (%" PRIu64 " of them GC_END)\n",
	       "time inversions", inversions, gc_end);
	print_size(li);
	printf("  %-16s %016" PRIx64 "\n", "xxh3-64", li->digest);
	print_counts(li);
}

/* ---- JSON ---- */

static void json_args(json_out *j, const ev_process *p)
{
	size_t start = 0, len = p ? p->args_len : 0;

	json_begin_array(j, "args");
	for (size_t i = 0; p && p->args && i <= len; i++)
		if (i == len || p->args[i] == '\0') {
			if (i > start || i < len)
				json_string(j, NULL, p->args + start,
					    i - start);
			start = i + 1;
		}
	json_end_array(j);
}

/* The fields of one process; `wall_key` names the wall-clock fields. */
static void json_process_fields(json_out *j, const ev_process *p,
				const char *wall_key, uint64_t wall_ns)
{
	char wall[64], key[64];

	if (p && p->rts)
		json_string(j, "rts", p->rts, p->rts_len);
	else
		json_null(j, "rts");
	json_args(j, p);
	p && p->have_pid ? json_uint(j, "pid", p->pid) : json_null(j, "pid");
	p && p->have_ppid ? json_uint(j, "ppid", p->ppid)
			  : json_null(j, "ppid");
	snprintf(key, sizeof key, "%s_ns", wall_key);
	if (p && p->have_wall) {
		format_wall(wall_ns, wall, sizeof wall);
		json_cstring(j, wall_key, wall);
		json_big_uint(j, key, wall_ns);
	} else {
		json_null(j, wall_key);
		json_null(j, key);
		snprintf(key, sizeof key, "%s_ns_str", wall_key);
		json_null(j, key);
	}
}

/* The top-level identity fields are the first process's (the only one of
 * most logs); "processes" lists them all. */
static void json_identity(json_out *j, const log_info *li)
{
	const ev_process *p = ev_process_list_at(li->procs, 0);

	json_process_fields(j, p, "wall_clock_start", p ? p->wall_epoch_ns : 0);
}

static void json_processes(json_out *j, const log_info *li)
{
	json_begin_array(j, "processes");
	for (size_t i = 0; i < ev_process_list_count(li->procs); i++) {
		const ev_process *p = ev_process_list_at(li->procs, i);
		json_begin_object(j, NULL);
		json_uint(j, "capset", p->capset);
		json_uint(j, "session", p->session + 1);
		json_process_fields(j, p, "wall_clock_start",
				    p->wall_epoch_ns + p->start_ns);
		p->have_start ? json_uint(j, "start_time_ns", p->start_ns)
			      : json_null(j, "start_time_ns");
		json_begin_array(j, "capabilities");
		for (size_t k = 0; k < p->n_caps; k++)
			json_uint(j, NULL, p->caps[k]);
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_caps(json_out *j, const log_info *li)
{
	json_begin_array(j, "capabilities");
	for (unsigned cap = 0; cap < EV_NO_CAP; cap++)
		if (cap_is_seen(li, cap))
			json_uint(j, NULL, cap);
	json_end_array(j);
	json_begin_array(j, "capsets");
	for (unsigned i = 0; i < li->n_capsets; i++) {
		json_begin_object(j, NULL);
		json_uint(j, "id", li->capsets[i].id);
		json_cstring(j, "type", capset_type_name(li->capsets[i].type));
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_counts(json_out *j, const log_info *li)
{
	uint64_t classes[N_CLASSES], gc_end;
	char key[16];

	json_uint(j, "time_inversions", total_inversions(li, &gc_end));
	json_uint(j, "gc_end_inversions", gc_end);
	class_counts(li, classes);
	json_begin_object(j, "events_by_class");
	for (unsigned bit = 0; bit < N_CLASSES; bit++)
		if (classes[bit])
			json_uint(j, ev_class_name((ev_class)(1u << bit)),
				  classes[bit]);
	json_end_object(j);
	json_begin_object(j, "events_by_cap");
	for (unsigned cap = 0; cap < EV_ID_COUNT; cap++)
		if (li->per_cap[cap].events) {
			snprintf(key, sizeof key, "%u", cap);
			json_uint(j, cap == EV_NO_CAP ? "global" : key,
				  li->per_cap[cap].events);
		}
	json_end_object(j);
	json_begin_array(j, "events_by_type");
	for (unsigned id = 0; id < EV_ID_COUNT; id++)
		if (li->per_type[id]) {
			json_begin_object(j, NULL);
			json_uint(j, "id", id);
			json_cstring(j, "name", type_name(li, id));
			json_uint(j, "count", li->per_type[id]);
			json_end_object(j);
		}
	json_end_array(j);
}

static void json_file(json_out *j, const log_info *li)
{
	char digest[17];

	json_begin_object(j, NULL);
	json_cstring(j, "file", li->path);
	json_cstring(j, "status", status_name(li->status));
	if (li->status != EV_END) {
		json_uint(j, "problem_offset", li->diag.offset);
		json_cstring(j, "problem", li->diag.message);
	}
	json_identity(j, li);
	json_processes(j, li);
	json_caps(j, li);
	li->have_time ? json_uint(j, "first_time_ns", li->first_time)
		      : json_null(j, "first_time_ns");
	li->have_time ? json_uint(j, "last_time_ns", li->last_time)
		      : json_null(j, "last_time_ns");
	li->have_time ? json_uint(j, "duration_ns",
				  li->last_time - li->first_time)
		      : json_null(j, "duration_ns");
	json_uint(j, "events", li->events);
	json_uint(j, "blocks", li->blocks);
	json_uint(j, "sessions", li->sessions);
	json_begin_array(j, "session_list");
	for (unsigned i = 0; i < li->sessions && i < MAX_LISTED_SESSIONS; i++) {
		json_begin_object(j, NULL);
		json_uint(j, "session", i + 1);
		json_uint(j, "offset", li->spans[i].start);
		json_uint(j, "end", li->spans[i].end);
		json_uint(j, "events", li->spans[i].events);
		json_cstring(j, "status", status_name(li->spans[i].status));
		json_end_object(j);
	}
	json_end_array(j);
	json_uint(j, "log_bytes", li->log_bytes);
	json_bool(j, "gzip", li->gzip);
	json_uint(j, "stored_bytes", li->stored_bytes);
	snprintf(digest, sizeof digest, "%016" PRIx64, li->digest);
	json_cstring(j, "xxh3_64", digest);
	json_counts(j, li);
	json_end_object(j);
}

/* ---- the command ---- */

int cmd_info(const cli_command *cmd, const cli_args *args)
{
	int as_json = cli_flag(cmd, args, "json"), worst = EXIT_OK;
	log_info *li = malloc(sizeof *li);
	json_out j;

	if (!li)
		return cli_error(EXIT_SYSTEM, "out of memory");
	json_init(&j, stdout);
	if (as_json) {
		json_begin_object(&j, NULL);
		json_uint(&j, "schema_version", INFO_SCHEMA_VERSION);
		json_begin_array(&j, "files");
	}
	for (int i = 0; i < args->n_positional; i++) {
		int rc;
		memset(li, 0, sizeof *li);
		rc = collect(li, args->positional[i]);
		if (rc == EXIT_OK && li->status != EV_END &&
		    li->status != EV_ETRUNCATED)
			rc = cli_error(EXIT_INVALID, "%s: offset %" PRIu64 ": %s",
				       li->path, li->diag.offset,
				       li->diag.message);
		if (rc > worst)
			worst = rc;
		if (li->path && as_json)
			json_file(&j, li);
		else if (li->path)
			print_text(li, i > 0);
		ev_process_list_free(li->procs);
	}
	if (as_json) {
		json_end_array(&j);
		json_end_object(&j);
	}
	free(li);
	return worst;
}
