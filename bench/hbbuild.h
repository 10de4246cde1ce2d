/* hbbuild.h — building: one (instance, implementation) compiled into its own shared library with
 * the flags of the guide's profile for this architecture (build.c). */
#ifndef HB_BUILD_H
#define HB_BUILD_H

#include "hbpackage.h"

/* ---- building (build.c) ---- */

typedef struct {
	char *library;   /* path of the shared library */
	char *profile;   /* profile name */
	char *cc;        /* compiler */
	char *cflags;    /* the exact flags, as one string */
	char *command;   /* the whole compile command, shell-quoted */
	char *log;       /* compiler output (warnings), possibly empty */
	char library_sha256[65];
} hb_build_result;

/* Profiles file for this machine's architecture; NULL path = the bundled bench/profiles.conf. */
int hb_build(hb_build_result **out, const hb_instance *inst, const char *profiles_path,
	const char *work_dir);
void hb_build_result_free(hb_build_result *res);
const char *hb_arch(void); /* x86_64, aarch64, … */
/* The compiler named by this architecture's profiles (caller frees), NULL when none is. */
char *hb_profiles_cc(const char *profiles_path);
/* What a profiles text gives an implementation on arch, from memory (hb_build reads the file and
 * calls this; so does the fuzz harness): the compiler, the profile chosen for wanted (its own
 * name, the part before a '-', then fallback) and its flags with pic appended. Caller frees. */
int hb_profiles_resolve(char **out_cc, char **out_profile, char **out_cflags, const char *text,
	const char *path, const char *arch, const char *wanted);

#endif
