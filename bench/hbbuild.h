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

/* ---- SUPERCOP (supercop_build.c): one implementation compiled as do-part compiles it ---- */

/* What to compile: an implementation of an operation's primitive in a tree. */
typedef struct {
	const char *tree, *operation, *primitive;
	const char *path;            /* crypto_hash/sha256/ref */
	const char *sources_sha256;  /* of its files: part of the cache key */
	char *const *dep_dirs;       /* folders of the headers of what it calls (NULL-terminated) */
	char *const *dep_objects;    /* and their archives */
	int pic;                     /* -fPIC after the line: objects a shared library can hold */
} hb_sc_target;

/* One implementation compiled with one compiler line: its objects and try programs. */
typedef struct {
	char *dir;          /* the copy, generated headers, objects and programs */
	char *compiler;     /* the compiler line */
	char *language;     /* c, cpp when it has C++ files, rust for a Cargo project */
	char *opi;          /* its namespace, crypto_hash_sha256_ref_timingleaks */
	char **objects;
	char *archive;      /* lib<operation>_<primitive>.a of the objects, as do-part links them */
	char *try_small, *try_big; /* the tree's try.c with and without -DSMALL */
	char *log;          /* every command and what the compiler said */
	char *error;        /* why it did not build (one line), NULL when it did */
	int pic;            /* compiled with -fPIC after the line */
} hb_sc_unit;

/* Compile t with compiler (cached under work/supercop/); *out always set: its error says what
 * failed. Negative only when out of memory. */
int hb_sc_compile(hb_sc_unit **out, const hb_sc_target *t, const char *compiler,
	const char *work);
void hb_sc_unit_free(hb_sc_unit *u);
/* The library the campaign times: the CryptHash adapter, with what it needs of u's archive and
 * of what it calls. */
int hb_sc_library(hb_build_result **out, const hb_sc_unit *u, const hb_sc_target *t,
	const char *work);
/* ---- a SUPERCOP Rust implementation (supercop_rust.c) ---- */

/* Build the Cargo project copied in dir offline against Debian's crates, with a glue crate
 * exporting opi (crypto_hash's namespaced name), into the static library archive; the commands
 * and what they said appended to *log, the reason in *error. */
int hb_sc_rust_build(char **log, char **error, const char *dir, const char *opi,
	const char *compiler, const char *archive);

/* ---- SUPERCOP's own libraries (supercop_libs.c) ---- */

/* A library built from the tree: its headers' folder (for -I) and its archive. */
typedef struct {
	char *include_dir, *archive;
	char *log;          /* every command and what it said */
	char *error;        /* why it did not build, naming the library (one line); NULL: built */
} hb_sc_lib;

/* Build (or find built) the tree's library name ("keccak": XKCP's libkeccak.a; "cryptopp":
 * libcryptopp.a) with the tree's first compiler line and -fPIC after it. 0, or the reason in
 * out->error. */
int hb_sc_lib_build(hb_sc_lib *out, const char *tree, const char *name, const char *work);
void hb_sc_lib_clear(hb_sc_lib *l);
/* The run starts now: a library that fails to build after this is not tried again by this run's
 * processes (they share the failure, kept beside the library's cache); one that failed before is
 * (called once by main, before any worker is forked). */
void hb_sc_lib_run_start(void);

/* The compiler lines for an implementation in language (c, cpp): file NULL, the tree's
 * okcompilers/<language>, its first line only; a folder (the tree's okcompilers/), every line of
 * its <language>; a file of C lines, its lines for C and every line of the tree's own file for
 * the other languages. */
char **hb_sc_compilers(const char *file, const char *tree, const char *language);

#endif
