/* discover.h — what discovery (submission.c) shares with the instances algorithm.json declares
 * (declare.c) and with the build (build.c); internal to the hashbench library. */
#ifndef HB_DISCOVER_H
#define HB_DISCOVER_H

#include <jansson.h>

#include "hashbench.h"

/* The library sources of an instance folder: its C files except programs defining main, the
 * ICCS DRNG and generator (drng.c, KAT_CryptHash*.c) and files another source #includes. */
int hb_sources_discover(hb_strlist *out, const char *dir);
/* "…/Reference_Implementation/X" → "reference" (and its version folder); see submission.c. */
char *hb_impl_from_path(char **out_version_folder, const char *instance_dir);
/* 1 to 64 letters, digits, '-' or '_' (csource.c). */
int hb_instance_name_valid(const char *s);
/* Is the file a header that defines ALGORITHM_INSTANCE: 1 with its name and digest length, 0 when
 * not, <0 when malformed. */
int hb_header_read(char **out_name, int *out_digest_bits, const char *path);

/* Sources, include folders, flags, profile and KAT scope of inst, then algorithm.json's build
 * overrides. The start is base's (a discovered instance: its lists are copied and only the
 * overrides naming inst apply) or inst's own folder; sources already set on inst replace the
 * start's sources. */
int hb_instance_configure(hb_instance *inst, const hb_algorithm *alg, json_t *build,
	const hb_instance *base);
/* Submitted KAT files and manifest lines for inst->name among files (the package's files). */
void hb_instance_find_kat(hb_instance *inst, char **files);
void hb_instance_clear(hb_instance *inst);

/* declare.c: append the instances of algorithm.json's "instances" (root) to alg, after the
 * discovered ones; every mistake is one line naming algorithm.json and the field. */
int hb_declare_instances(hb_algorithm *alg, json_t *root, json_t *build, char **files);
/* The private copy of inst's folder with its headers' #define lines rewritten, for an instance
 * with rewrites: <work_dir>/declared/<algorithm>/<stem>/, written only where it differs, so the
 * build cache stays valid; *out_dir is the caller's. */
int hb_declare_copy(char **out_dir, const hb_instance *inst, const char *work_dir);

#endif
