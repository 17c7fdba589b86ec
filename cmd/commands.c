/*
 * evtool's command table: each command's name, function, summary, usage,
 * help text and options (the options are defined beside each command).
 * main.c runs from it, cli.c parses with it, complete.c lists it.
 */
#include <stddef.h>

#include "cli.h"
#include "commands.h"

const cli_command cli_commands[] = {
	{ "cat", cmd_cat, "copy a log (decompressing gzip), optionally re-blocked",
	  "[IN...] [-o OUT]",
	  "Copies IN to OUT byte for byte; several inputs are written one after\n"
	  "the other as separate sessions. With --reblock, events are grouped\n"
	  "into fresh blocks by capability (the blocks GHC's RTS would write).\n"
	  "\n"
	  "example: evtool cat run.eventlog.gz -o run.eventlog",
	  cat_options, 1, -1, 0 },
	{ "info", cmd_info, "summarise logs: GHC version, caps, times, event counts",
	  "[FILE...]",
	  "Prints the RTS identifier, program arguments, pid, capabilities and\n"
	  "capsets, first and last timestamps, wall-clock start, events per\n"
	  "type, class and capability, blocks, whether the log is complete,\n"
	  "time inversions and the xxh3-64 digest of each FILE.\n"
	  "\n"
	  "example: evtool info --json myprog.eventlog | jq '.files[0].events'",
	  info_options, 1, -1, 0 },
	{ "show", cmd_show, "print the events as text, exactly as ghc-events show does",
	  "[FILE]",
	  "Prints the event types, then every event in time order (ties in\n"
	  "file order), byte for byte the text of ghc-events show, in bounded\n"
	  "memory. --format ndjson prints one JSON object per event instead:\n"
	  "time, cap, type and every payload field by name. --follow prints\n"
	  "the events of a log still being written (a running +RTS -l program\n"
	  "or a FIFO) in file order, until its data end or an interrupt. A log\n"
	  "cut short: its complete events, then an error and exit 3.\n"
	  "\n"
	  "example: evtool show run.eventlog | grep 'stopping thread'",
	  show_options, 1, 1, 0 },
	{ "filter", cmd_filter, "keep some events: by class, type, cap, process, thread, time, markers",
	  "[IN] [-o OUT]",
	  "Keeps the events that every selector accepts (a list matches when one\n"
	  "item does; the --exclude-* options drop instead), plus the metadata\n"
	  "readers need (capsets, capabilities, RTS identifier, program, pid,\n"
	  "wall clock, heap and profile definitions, labels of kept threads)\n"
	  "unless --no-metadata. Times are timestamps as show, info and\n"
	  "validate print them (1979690, 227240 ns, 1.5s), +10ms after the\n"
	  "log's first event, or ISO 8601 wall clock. Markers match exactly, or\n"
	  "as globs with * and ?. The output is re-blocked by capability.\n"
	  "\n"
	  "example: evtool filter run.eventlog --class gc --from 2s --to 3s | evtool show",
	  filter_options, 1, 1, 0 },
	{ "stats", cmd_stats, "the +RTS -s summary, GC pauses and threads of a run; compare, CI gate, live",
	  "[FILE...] | BASE NEW [--fail-if COND]... | --follow [SOURCE]",
	  "Prints what +RTS -s prints, from the events: bytes allocated and\n"
	  "copied, maximum residency and slop, memory in use, collections and\n"
	  "pauses per generation, parallel GC work balance, sparks, GC and MUT\n"
	  "elapsed time, productivity and allocation rate; one block per\n"
	  "process of a merged log. Counts agree exactly with the RTS's; MUT\n"
	  "includes INIT and EXIT, which no event marks. After it: GC pause\n"
	  "percentiles (p50, p90, p99, max) and the 10 longest pauses, overall\n"
	  "and per generation; --threads and --caps add threads and\n"
	  "capabilities. A truncated log gets the figures of its complete\n"
	  "events, a warning and exit 3.\n"
	  "\n"
	  "Two logs are compared, base then new: each figure side by side with\n"
	  "its change. --fail-if COND exits 1, naming the condition, when COND\n"
	  "holds for the new run (or the only one). COND is FIGURE OP VALUE;\n"
	  "OP is < > <= >=; VALUE is absolute (50ms, 2GiB, 1000, 0.9 or 90%;\n"
	  "a bare time is nanoseconds) or, with two logs, +N% or -N% of the\n"
	  "base. FIGURE is a key of \"figures\" in --json: elapsed, mut-time,\n"
	  "gc-time, productivity, allocated, alloc-rate, copied, max-live,\n"
	  "max-mem, max-slop, collections, major-collections, max-pause,\n"
	  "p50-pause, p90-pause, p99-pause.\n"
	  "\n"
	  "--follow reads a log as it is written (a growing file, a FIFO given\n"
	  "to +RTS -ol, - or unix:PATH, the socket of a program using\n"
	  "eventlog-socket) and prints a line per --every of the log's time:\n"
	  "allocation rate, live and total heap, GCs and GC time in the\n"
	  "interval, productivity so far; then the summary.\n"
	  "\n"
	  "example: evtool stats base.eventlog new.eventlog --fail-if 'gc-time>+10%' --fail-if 'max-pause>50ms'",
	  stats_options, 1, -1, 0 },
	{ "monitor", cmd_monitor, "serve the figures of running programs' live logs to Prometheus",
	  "SOURCE... [--listen ADDR] | --once FILE...",
	  "Follows every SOURCE at once and serves their figures on /metrics\n"
	  "in Prometheus' text format (OpenMetrics when the scraper asks for\n"
	  "it), with a status page on /. A SOURCE is a FIFO given to +RTS -ol,\n"
	  "a log file still growing, unix:PATH (the socket of a program using\n"
	  "eventlog-socket, connected again when it restarts) or a directory,\n"
	  "in which new *.eventlog files and FIFOs are followed as they appear.\n"
	  "Each run of a program is one set of series, labelled with program,\n"
	  "pid and source: allocation, live bytes, heap, collections and GC\n"
	  "pauses per generation, GC and mutator time, capabilities, threads,\n"
	  "sparks, user markers, events and bytes read (the man page lists\n"
	  "them). A run that ends keeps its final values for --keep-ended;\n"
	  "they are the figures of evtool stats. Damaged input is skipped to\n"
	  "the next block and reported. Serves loopback only unless --listen\n"
	  "says otherwise. --once prints the metrics of finished logs instead.\n"
	  "\n"
	  "example: evtool monitor /run/ghc/ unix:/tmp/api.sock --listen 127.0.0.1:9464",
	  monitor_options, 1, -1, 1 },
	{ "report", cmd_report, "one self-contained HTML page about a run: timelines, GC, heap",
	  "[LOG | BASE NEW] [-o FILE]",
	  "Writes one HTML page about LOG (default: standard input) that needs\n"
	  "nothing else and loads nothing: the +RTS -s summary (program,\n"
	  "arguments, RTS, duration, allocation, GC and productivity, as stats\n"
	  "computes it), each capability's time running Haskell code, in GC\n"
	  "and idle with the user markers, GC pauses (p50, p90, p99, max and\n"
	  "the 10 longest), heap size, live bytes and allocation rate over\n"
	  "time, the bands of a heap profile when the log has one, and a\n"
	  "sortable table of the threads; one section per process of a merged\n"
	  "log. Time charts zoom with the wheel and pan by dragging. The log\n"
	  "is read once, in bounded memory, into a fixed number of time\n"
	  "buckets, so the page stays a few MB at most. A truncated log gets\n"
	  "the page of its complete events, a warning and exit 3.\n"
	  "With two logs, a page comparing their heap profiles: both runs'\n"
	  "bands stacked on one time axis, the same colour per band, each\n"
	  "band's change of peak as bars, and the figures of stats BASE NEW.\n"
	  "\n"
	  "example: evtool report run.eventlog -o run.html",
	  report_options, 1, 2, 0 },
	{ "sort", cmd_sort, "put a log into one global, stable time order",
	  "[IN] [-o OUT] | --check [IN]",
	  "Writes IN's events in time order (ties keep their file order, as\n"
	  "ghc-events show prints them), re-blocked by capability, in bounded\n"
	  "memory: capability streams are merged in place, or sorted runs are\n"
	  "spilled to unnamed temporary files. --check only says whether IN is\n"
	  "in order (exit 0) or names its first inversion on standard output\n"
	  "(exit 1); a log cut short whose complete events are in order exits\n"
	  "3; input it cannot check (not an eventlog, cut inside its header,\n"
	  "damaged) exits 1 with \"cannot check\" on standard error.\n"
	  "\n"
	  "example: evtool sort big.eventlog -o sorted.eventlog",
	  sort_options, 1, 1, 0 },
	{ "merge", cmd_merge, "merge the logs of several processes into one timeline",
	  "[IN...] [-o OUT]",
	  "Writes one log holding every IN as its own process: capabilities,\n"
	  "capsets, threads, tasks, cost centres, ticky counters and heap\n"
	  "profiles are renumbered so that no two inputs share one, and each\n"
	  "input's clock is shifted by its WALL_CLOCK_TIME so that the processes\n"
	  "line up in real time (the earliest start is time 0). Capability\n"
	  "blocks are copied whole, interleaved by aligned start time; the\n"
	  "global events of all inputs are merged in time order, each heap or\n"
	  "ticky sample whole. Logs of different GHC versions merge as they\n"
	  "are: an older, shorter event layout is widened where that is exact,\n"
	  "and an input without a wall clock is aligned by its start, each\n"
	  "with a warning naming the input; --strict refuses them instead.\n"
	  "\n"
	  "example: evtool merge client.eventlog server.eventlog -o both.eventlog.gz",
	  merge_options, 1, -1, 0 },
	{ "export", cmd_export, "convert a log for perfetto, speedscope or hp2ps",
	  "[LOG] [--format perfetto|speedscope|hp] [-o OUT]",
	  "Converts LOG (default: standard input) in time order and bounded\n"
	  "memory. perfetto: Trace Event Format JSON (ui.perfetto.dev,\n"
	  "chrome://tracing, speedscope): a process per OS process, a track per\n"
	  "capability, thread runs and GCs as slices, markers and messages as\n"
	  "instants, heap and spark counters. speedscope: the cost-centre time\n"
	  "profile of a profiled run (+RTS -p -l), a profile per capability. hp:\n"
	  "the heap profile (+RTS -h -l) as the RTS's .hp file, for hp2ps or\n"
	  "eventlog2html. A log without what the format needs: a message, exit\n"
	  "1, no output. A log cut short: its complete events, exit 3.\n"
	  "\n"
	  "example: evtool export run.eventlog -o run.json  # open in ui.perfetto.dev",
	  export_options, 1, 1, 0 },
	{ "validate", cmd_validate, "check that logs are what GHC writes (a CI gate)",
	  "[FILE...]",
	  "Checks each FILE's structure (header, declared sizes, blocks, data\n"
	  "end), time order within each capability, references to caps and\n"
	  "capsets, and the life of threads, GCs, tasks and heap samples. Prints\n"
	  "each finding (an error or a warning, with its offset, event and check\n"
	  "id) on standard error and a verdict per file. Exit 0 when every file\n"
	  "is valid, 1 when one is invalid (or has warnings, with --strict), 3\n"
	  "when the worst is truncated (a killed program's log).\n"
	  "\n"
	  "example: evtool validate --strict bench.eventlog || exit 1",
	  validate_options, 0, -1, 0 },
	{ "view", cmd_view, "the timeline of a log of any size, in the browser",
	  "LOG... [--listen ADDR] [--open]",
	  "Indexes LOG (plain or gzip; - reads standard input, spooled; a FIFO\n"
	  "or unix:PATH as it is written; several logs merged as merge aligns\n"
	  "them) in one\n"
	  "streaming pass, in bounded memory, and serves its timeline to a\n"
	  "browser until interrupted: one row per capability showing who ran\n"
	  "(a colour per thread), GC and idle, with markers and messages;\n"
	  "zoom and pan from the whole run to single events, hover to read an\n"
	  "event as show prints it, select a range for its figures, search\n"
	  "labels, markers and messages. The page appears while the log is\n"
	  "still being indexed, and a log file still being written grows on\n"
	  "screen. Prints the page's URL, which carries a random token that\n"
	  "every request needs; serves loopback only unless --listen says\n"
	  "otherwise. The API the page uses is in doc/view-api.md.\n"
	  "\n"
	  "example: evtool view run.eventlog --open",
	  view_options, 1, -1, 1 },
	{ "truncate", cmd_truncate, "repair a log cut short (a killed program); cut a log to a prefix",
	  "[IN] [-o OUT] | IN --in-place",
	  "Keeps every complete event of IN, fixes the size and end time of the\n"
	  "block that was cut and appends the data-end marker: the result is a\n"
	  "valid log. Says on standard error what it kept and dropped, and exits\n"
	  "3 when IN was incomplete or damaged (0 when IN was complete: the\n"
	  "output is then identical). --resync skips garbage to the next block.\n"
	  "--at TIME keeps the events stamped before TIME (a timestamp as show\n"
	  "prints it, +5s after the first event, or ISO 8601); --events N and\n"
	  "--bytes SIZE (150M) keep a prefix.\n"
	  "\n"
	  "example: evtool truncate crashed.eventlog -o fixed.eventlog",
	  truncate_options, 1, 1, 0 },
	{ "archive", cmd_archive, "gzip logs with their digest; test and extract archives",
	  "[FILE...] | --test [FILE.gz...] | --extract [FILE.gz...]",
	  "Writes FILE.gz beside each FILE (or -o OUT): standard gzip, which\n"
	  "gzip, zcat and every evtool command read, holding the xxh3-64 digest\n"
	  "of the log in its header. Each log is validated first; an invalid or\n"
	  "truncated one is refused unless --force. --test checks archives\n"
	  "(CRC-32, length, digest, valid eventlog); --extract restores the log\n"
	  "(FILE.gz to FILE), checking it. Existing outputs are kept unless\n"
	  "--force; inputs are kept unless --rm. gzip's and zstd's habits\n"
	  "work: -d extracts, -c writes to standard output, -k keeps, -1 to\n"
	  "-9 set the level, -T N the threads.\n"
	  "\n"
	  "example: evtool archive --rm ci/*.eventlog && evtool archive --test ci/*.gz",
	  archive_options, 1, -1, 0 },
	{ NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0 }
};
