/*
 * `evtool help --dump-options`: the command and option tables as lines of
 * tab-separated fields, for completions/generate.sh and the tests that
 * keep the completions and the man page in step with the tables. Not
 * listed in --help: it is for tools, not people.
 *
 *   command TAB NAME TAB SUMMARY
 *   option TAB COMMAND TAB LONG TAB SHORT TAB VALUE TAB HINT TAB HELP
 *
 * SHORT and VALUE are "-" when the option has none. HINT says what its
 * value is, for completion: "-" (no value), "file", "dir", "text" (free
 * text), "words:W1 W2 ..." (one of the words) or "list:W1 W2 ..." (a
 * comma-separated list of them).
 *
 * The words come from where the parsers take them: an option whose
 * value_name lists its words ("text|ndjson", "args|env,...", cli.h) from
 * the option table itself; class and event type names from the
 * library's catalogue, which ev_filter's selectors parse with.
 */
#include <stdio.h>
#include <string.h>

#include <evtool/catalog.h>

#include "cli.h"

static void print_classes(FILE *to)
{
	const char *sep = "";

	for (unsigned bit = 0; bit < 32; bit++) {
		const char *name = ev_class_name((ev_class)(1u << bit));
		if (name) {
			fprintf(to, "%s%s", sep, name);
			sep = " ";
		}
	}
}

static void print_types(FILE *to)
{
	for (size_t i = 0; i < ev_catalog_count(); i++)
		fprintf(to, "%s%s", i ? " " : "", ev_catalog_at(i)->name);
}

static int is_one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

/* "words:W1 W2" or "list:W1 W2" from a value_name "W1|W2" or "W1|W2,...";
 * 0 when value_name is not a list of words. */
static int print_words(const char *value_name, FILE *to)
{
	size_t len = strlen(value_name);
	int list = len > 4 && strcmp(value_name + len - 4, ",...") == 0;

	if (!strchr(value_name, '|'))
		return 0;
	fputs(list ? "list:" : "words:", to);
	for (size_t i = 0; i < len - (list ? 4 : 0); i++)
		fputc(value_name[i] == '|' ? ' ' : value_name[i], to);
	return 1;
}

static void print_hint(const cli_option *o, FILE *to)
{
	static const char *const files[] = { "OUT", "FILE", "IN", "LOG", NULL };
	static const char *const dirs[] = { "DIR", NULL };

	if (!o->value_name || cli_optional_value(o)) {
		fputs("-", to); /* an optional value only after "=" */
	} else if (print_words(o->value_name, to)) {
		return;
	} else if (strcmp(o->name, "class") == 0 ||
		   strcmp(o->name, "exclude-class") == 0) {
		fputs("list:", to);
		print_classes(to);
	} else if (strcmp(o->name, "type") == 0 ||
		   strcmp(o->name, "exclude-type") == 0) {
		fputs("list:", to);
		print_types(to);
	} else if (is_one_of(o->value_name, files)) {
		fputs("file", to);
	} else if (is_one_of(o->value_name, dirs)) {
		fputs("dir", to);
	} else {
		fputs("text", to);
	}
}

int cli_dump_options(FILE *to)
{
	for (const cli_command *c = cli_commands; c->name; c++) {
		fprintf(to, "command\t%s\t%s\n", c->name, c->summary);
		for (const cli_option *o = c->options; o->name; o++) {
			fprintf(to, "option\t%s\t%s\t", c->name, o->name);
			/* '#' (-1 to -9) is no word to complete. */
			if (o->short_name && o->short_name != '#')
				fputc(o->short_name, to);
			else
				fputc('-', to);
			fprintf(to, "\t%s\t", o->value_name ? o->value_name : "-");
			print_hint(o, to);
			fprintf(to, "\t%s\n", o->help);
		}
		fprintf(to, "option\t%s\thelp\th\t-\t-\tshow this help\n",
			c->name);
	}
	return EXIT_OK;
}
