/*
 * The archive's rule for the log it holds: valid as `evtool validate`
 * sees it with its default checks (warnings do not count), stopped at
 * the first error. Archiving refuses a log that breaks it (unless
 * forced), and testing an archive reports it. Built on validate's public
 * API; archive_reader.c calls it, it calls nothing of the archive.
 */
#include "evtool/archive.h"

#include <stdio.h>
#include <string.h>

#include "evtool/validate.h"

static int first_error(const ev_finding *f, void *ctx)
{
	ev_diag *verdict = ctx;

	if (f->severity != EV_SEVERITY_ERROR)
		return 0;
	verdict->status = strcmp(f->check, "truncated") == 0 ? EV_ETRUNCATED
							      : EV_EFORMAT;
	verdict->offset = f->offset;
	snprintf(verdict->message, sizeof verdict->message, "%s", f->message);
	return 1; /* one error is enough to refuse */
}

int ev_archive_check_log(ev_reader *r, ev_diag *verdict)
{
	ev_validator *val = NULL;
	int rc;

	memset(verdict, 0, sizeof *verdict);
	verdict->status = EV_END;
	if ((rc = ev_validator_new(&val, NULL)) == EV_OK) {
		ev_validator_set_findings(val, first_error, verdict);
		rc = ev_validator_run_reader(val, r);
	}
	if (rc < 0) {
		verdict->status = rc;
		verdict->offset = val ? ev_validator_diag(val)->offset : 0;
		verdict->reason = val ? ev_validator_diag(val)->reason : 0;
		snprintf(verdict->message, sizeof verdict->message, "%s",
			 val ? ev_validator_diag(val)->message
			     : ev_strerror(rc));
	}
	ev_validator_free(val);
	return verdict->status;
}
