/* merge_input.h — what `hashbench merge` (merge.c) knows of one input (merge_input.c): a shard's
 * evidence folder with its system.json and SHA256SUMS, read, checked and verified against its
 * files. Internal to bench/. */
#ifndef HB_MERGE_INPUT_H
#define HB_MERGE_INPUT_H

#include <stddef.h>

#include <jansson.h>

typedef struct {
	char *rel;        /* path inside the system folder, as SHA256SUMS lists it */
	char sha256[65];
	size_t input;     /* index of the input that holds it */
	int passed;       /* a KAT summary whose library is timed: PASS, or UNVERIFIED */
} hb_merge_unit;

typedef struct {
	char *dir;        /* as given, without trailing '/' */
	char *parent;     /* dir/..: the data folder around it (also when dir is a symbolic link) */
	const char *name; /* the folder's name: the system */
	json_t *sys;      /* system.json */
	json_t *shard;    /* borrowed from sys; NULL for an unsharded run */
	long long index, count;
	hb_merge_unit *sums; /* SHA256SUMS, sorted by rel */
	size_t nsums;
} hb_merge_input;

/* Sorted by rel, then input. */
int hb_merge_unit_cmp(const void *a, const void *b);
/* The unit of v[0..n) (sorted) with this rel, or NULL. */
const hb_merge_unit *hb_merge_unit_find(const hb_merge_unit *v, size_t n, const char *rel);
int hb_merge_unit_push(hb_merge_unit **v, size_t *n, const char *rel, const char *sha256,
	size_t input);
void hb_merge_units_free(hb_merge_unit *v, size_t n);
/* The value at a dotted path of objects ("campaign.profile"), or NULL. */
json_t *hb_merge_at(json_t *j, const char *path);

/* Read the input at dir (a <system> folder, as given): its SHA256SUMS, checked against the files,
 * and its system.json with the shard it ran; one message naming the file and field when not. */
int hb_merge_input_load(hb_merge_input *in, const char *dir);
void hb_merge_input_clear(hb_merge_input *in);

#endif
