/* The wire-size table; the encoders are inline in wire.h. */
#include "wire.h"

void evi_wire_table_init(evi_wire_table *t, const ev_header *h)
{
	t->header = h;
	for (unsigned id = 0; id < EVI_SMALL_IDS; id++) {
		const ev_type_decl *d = ev_header_find(h, (uint16_t)id);
		t->small[id] = d ? d->wire_size : EVI_UNDECLARED;
	}
}
