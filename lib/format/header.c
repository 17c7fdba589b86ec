/*
 * The eventlog header: declared event types, kept exactly as read.
 */
#include "evtool/header.h"

#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "internal.h"

/* Ids are looked up through 256 lazily allocated pages of 256 slots, so a
 * header costs memory in proportion to the ids it declares (real logs use
 * one page) and lookups stay O(1). A slot holds index + 1, 0 if absent. */
#define PAGE_BITS 8
#define PAGE_SIZE (1u << PAGE_BITS)

struct ev_header {
	ev_type_decl *types;
	size_t count;
	size_t capacity;
	uint32_t *pages[PAGE_SIZE];
	unsigned quirks;
};

/* GHC 6.12 declared these with 8-byte thread ids but wrote 4-byte ones
 * (doc/format.md section 4); each of them starts with a thread id. */
static const uint16_t ghc612_thread_events[] = {
	EV_CREATE_THREAD, EV_RUN_THREAD, EV_STOP_THREAD, EV_THREAD_RUNNABLE,
	EV_MIGRATE_THREAD, EV_RUN_SPARK, EV_STEAL_SPARK, EV_THREAD_WAKEUP,
	EV_CREATE_SPARK_THREAD
};
#define GHC612_THREAD_ID_SURPLUS 4
#define GHC612_DECLARED_CREATE_THREAD 8
#define GHC612_STARTUP_WIRE_SIZE 2

int evi_header_new(ev_header **out, ev_diag *diag)
{
	*out = calloc(1, sizeof **out);
	return *out ? EV_OK : evi_new_failed(diag, NULL, EV_ENOMEM);
}

void evi_header_free(ev_header *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->count; i++)
		free((void *)h->types[i].desc);
	for (size_t i = 0; i < PAGE_SIZE; i++)
		free(h->pages[i]);
	free(h->types);
	free(h);
}

static uint32_t *slot_of(const ev_header *h, uint16_t id)
{
	uint32_t *page = h->pages[id >> PAGE_BITS];
	return page ? &page[id & (PAGE_SIZE - 1)] : NULL;
}

const ev_type_decl *ev_header_find(const ev_header *h, uint16_t id)
{
	const uint32_t *slot = slot_of(h, id);
	return slot && *slot ? &h->types[*slot - 1] : NULL;
}

size_t ev_header_count(const ev_header *h)
{
	return h->count;
}

const ev_type_decl *ev_header_at(const ev_header *h, size_t i)
{
	return i < h->count ? &h->types[i] : NULL;
}

unsigned evi_header_quirks(const ev_header *h)
{
	return h->quirks;
}

static int is_ghc612_thread_event(uint16_t id)
{
	for (size_t i = 0; i < sizeof ghc612_thread_events /
			       sizeof ghc612_thread_events[0]; i++)
		if (ghc612_thread_events[i] == id)
			return 1;
	return 0;
}

static int32_t wire_size_of(unsigned quirks, uint16_t id, int32_t size)
{
	if (!(quirks & EVI_QUIRK_GHC612) || size == EV_SIZE_VARIABLE)
		return size;
	if (is_ghc612_thread_event(id) && size >= GHC612_THREAD_ID_SURPLUS)
		return size - GHC612_THREAD_ID_SURPLUS;
	if (id == EV_STARTUP && size == 0)
		return GHC612_STARTUP_WIRE_SIZE;
	return size;
}

static void update_quirks(ev_header *h)
{
	const ev_type_decl *create = ev_header_find(h, EV_CREATE_THREAD);
	unsigned quirks = 0;

	if (create && create->size == GHC612_DECLARED_CREATE_THREAD)
		quirks |= EVI_QUIRK_GHC612;
	if (ev_header_find(h, EV_USER_MARKER) &&
	    !ev_header_find(h, EV_HACK_BUG_T9003))
		quirks |= EVI_QUIRK_GHC782;
	h->quirks = quirks;
	for (size_t i = 0; i < h->count; i++)
		h->types[i].wire_size = wire_size_of(quirks, h->types[i].id,
						     h->types[i].size);
}

static int reserve_slot(ev_header *h, uint16_t id, uint32_t **slot)
{
	uint32_t **page = &h->pages[id >> PAGE_BITS];

	if (!*page && !(*page = calloc(PAGE_SIZE, sizeof **page)))
		return EV_ENOMEM;
	*slot = &(*page)[id & (PAGE_SIZE - 1)];
	if (**slot)
		return EV_EINVAL;
	return evi_grow(&h->types, &h->capacity, h->count + 1,
			sizeof *h->types);
}

int evi_header_add(ev_header *h, uint16_t id, int32_t size,
		  const char *desc, uint32_t desc_len,
		  const uint8_t *extra, uint32_t extra_len)
{
	uint32_t *slot;
	char *blob;
	int rc;

	if (size < EV_SIZE_VARIABLE || size > UINT16_MAX - 1)
		return EV_EINVAL;
	if ((rc = reserve_slot(h, id, &slot)) < 0)
		return rc;
	/* One allocation holds the description, its NUL and the extra. */
	blob = malloc((size_t)desc_len + 1 + extra_len);
	if (!blob)
		return EV_ENOMEM;
	if (desc_len)
		memcpy(blob, desc, desc_len);
	blob[desc_len] = '\0';
	if (extra_len)
		memcpy(blob + desc_len + 1, extra, extra_len);

	h->types[h->count] = (ev_type_decl){
		.id = id,
		.size = size,
		.wire_size = wire_size_of(h->quirks, id, size),
		.desc_len = desc_len,
		.desc = blob,
		.extra_len = extra_len,
		.extra = (const uint8_t *)blob + desc_len + 1,
	};
	*slot = (uint32_t)++h->count;
	if (id == EV_CREATE_THREAD || id == EV_USER_MARKER ||
	    id == EV_HACK_BUG_T9003)
		update_quirks(h);
	return EV_OK;
}

int evi_header_copy(ev_header **out, const ev_header *src)
{
	int rc = evi_header_new(out, NULL);

	for (size_t i = 0; rc == EV_OK && i < src->count; i++) {
		const ev_type_decl *t = &src->types[i];
		rc = evi_header_add(*out, t->id, t->size, t->desc, t->desc_len,
				   t->extra, t->extra_len);
	}
	if (rc != EV_OK) {
		evi_header_free(*out);
		*out = NULL;
	}
	return rc;
}

/* Per type: "etb\0", u16 id, i16 size, u32 len, desc, u32 len, extra,
 * "ete\0" (doc/format.md section 1). */
static size_t type_encoded_size(const ev_type_decl *t)
{
	return 4 + 2 + 2 + 4 + t->desc_len + 4 + t->extra_len + 4;
}

size_t evi_header_encoded_size(const ev_header *h)
{
	size_t n = 4 * 5; /* hdrb hetb ... hete hdre datb */

	for (size_t i = 0; i < h->count; i++)
		n += type_encoded_size(&h->types[i]);
	return n;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	ev_store32(p, v);
	return p + 4;
}

static uint8_t *put_bytes(uint8_t *p, const void *data, uint32_t len)
{
	p = put32(p, len);
	if (len)
		memcpy(p, data, len);
	return p + len;
}

size_t evi_header_encode(const ev_header *h, uint8_t *buf)
{
	uint8_t *p = buf;

	p = put32(p, EVI_HEADER_BEGIN);
	p = put32(p, EVI_HET_BEGIN);
	for (size_t i = 0; i < h->count; i++) {
		const ev_type_decl *t = &h->types[i];
		p = put32(p, EVI_ET_BEGIN);
		ev_store16(p, t->id);
		ev_store16(p + 2, t->size == EV_SIZE_VARIABLE ? UINT16_MAX
							 : (uint16_t)t->size);
		p = put_bytes(p + 4, t->desc, t->desc_len);
		p = put_bytes(p, t->extra, t->extra_len);
		p = put32(p, EVI_ET_END);
	}
	p = put32(p, EVI_HET_END);
	p = put32(p, EVI_HEADER_END);
	p = put32(p, EVI_DATA_BEGIN);
	return (size_t)(p - buf);
}
