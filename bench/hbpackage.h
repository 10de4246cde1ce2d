/* hbpackage.h — the package model: the catalog of NGCC submissions (algorithms, their instances
 * and implementations as discovered or as algorithm.json declares them, sources, flags and KAT
 * files), and the readers of the C headers and KAT manifests behind it. */
#ifndef HB_PACKAGE_H
#define HB_PACKAGE_H

#include <stddef.h>

#include <jansson.h>

#include "hbutil.h"

/* ---- submissions: algorithms, instances, implementations (catalog.c, submission.c) ---- */

typedef enum { HB_KAT_2_12, HB_KAT_2_23, HB_KAT_2_33, HB_KAT_LOOP, HB_KAT_NSETS } hb_kat_set;

typedef struct hb_instance {
	char *name;            /* ALGORITHM_INSTANCE */
	char *impl;            /* reference, optimized, … */
	char *version_folder;  /* Reference_Implementation, … */
	int digest_bits;       /* DIGEST_BIT_LENGTH */
	char *dir;             /* instance folder */
	char *header;          /* the header that defines ALGORITHM_INSTANCE (NULL for a declared
	                        * instance whose folder has none) */
	char **sources;        /* absolute paths, NULL-terminated */
	char **include_dirs;   /* NULL-terminated */
	char **extra_cflags;   /* from algorithm.json, NULL-terminated */
	char **ldflags;        /* from algorithm.json, after the sources; NULL-terminated */
	/* An instance algorithm.json declares ("instances") sets #define values: rewritten in a
	 * private copy of its folder's headers where a header defines them, else -D flags. The
	 * three lists are empty for discovered instances and NULL in one not from a catalog. */
	char **defines;        /* NAME=VALUE as declared; NULL-terminated */
	char **rewrites;       /* one line per rewritten #define, for logs and records:
	                        * "CryptHash_X.h: #define DIGEST_BIT_LENGTH 2048 -> 256" */
	char **define_flags;   /* "-DNAME=VALUE", in the build command after the -I flags */
	int kat_byte_aligned;  /* the library hashes whole bytes only: KAT on those entries */
	char *profile;         /* build profile name (default: impl) */
	char *kat_files[HB_KAT_NSETS];      /* submitted KAT file or NULL */
	char *kat_manifest[HB_KAT_NSETS];   /* sha256 hex from a kat.sha256, or NULL */
	char *kat_manifest_file[HB_KAT_NSETS];
	struct hb_algorithm *algorithm;     /* borrowed back-pointer */
	struct hb_supercop_impl *supercop;  /* a SUPERCOP implementation (supercop.c), else NULL */
} hb_instance;

typedef struct hb_algorithm {
	char *id;
	char *name;
	char *dir;        /* folder holding algorithm.json */
	char *json_path;
	char *json_text;  /* algorithm.json as read, for the catalog copy */
	hb_instance *instances;
	size_t ninstances;
} hb_algorithm;

typedef struct {
	hb_algorithm *algorithms;
	size_t nalgorithms;
	char **warnings; /* discovery problems that did not stop it, NULL-terminated */
} hb_catalog;

/* Load every algorithm under dir (dir itself or its sub-folders holding algorithm.json). */
int hb_catalog_load(hb_catalog **out, const char *dir);
/* The catalog of a command: the NGCC packages under submissions (NULL: none), then, when
 * supercop is not NULL, every crypto_hash implementation of that SUPERCOP tree. */
int hb_catalog_open(hb_catalog **out, const char *submissions, const char *supercop);
void hb_catalog_free(hb_catalog *cat);
/* Find "INSTANCE[:IMPL]" (IMPL defaults to reference). Borrowed pointer. */
int hb_catalog_find(const hb_instance **out, const hb_catalog *cat, const char *spec);
/* "SM3" for reference, "SM3.optimized" otherwise. Caller frees. */
char *hb_instance_stem(const hb_instance *inst);
const char *hb_kat_set_name(hb_kat_set set); /* "2_12", …, "Loop" */
/* Parse "2_12,2_23,loop" into a mask of (1 << set). */
int hb_kat_sets_parse(unsigned *out_mask, const char *list);

/* C sources as code (csource.c): a copy with comments, string and character literals blanked
 * (caller frees; NULL when out of memory), and whether such code defines main. */
char *hb_code_only(const char *src, size_t len);
int hb_defines_main(const char *code);
/* #define lines of the instances algorithm.json declares (csource.c). Rewrite those of text
 * that name one of defines ("NAME=VALUE"): *out gets the new text and *out_len its length (the
 * caller's; NULL when no line names one); found[k] (when not NULL) counts the lines of
 * defines[k]; lines (when not NULL) gets "base: #define NAME old -> new" for each. A
 * function-like macro cannot take a value: an error naming ctx. */
int hb_define_rewrite(char **out, size_t *out_len, hb_strlist *lines, size_t *found,
	const char *text, size_t len, const char *base, char *const *defines, const char *ctx);
/* The first of files that #defines name (in code) without first testing whether it is defined
 * already; NULL when none does. */
const char *hb_define_file(char *const *files, const char *name);
/* Does any of files use the identifier name in its code? */
int hb_code_uses(char *const *files, const char *name);

/* The readers behind hb_catalog_load, from memory (the fuzz harnesses call them too). A C header
 * (text NUL-terminated at text_len): 1 with the ALGORITHM_INSTANCE name (caller frees) and
 * DIGEST_BIT_LENGTH when it defines the instance, 0 when not, <0 when malformed (path names it
 * in the message). */
int hb_header_scan(char **out_name, int *out_digest_bits, const char *text, size_t text_len,
	const char *path);
/* The sha256 hex that a kat.sha256 text (sha256sum format) lists for the file named want, or
 * NULL; text is cut into lines in place. Caller frees. */
char *hb_kat_manifest_find(char *text, const char *want);

/* Which folders of a package count (layout.c): has_impl says whether any of files (paths below
 * dir) lies under an "Implementations" folder; then a header counts when it does too, or lies
 * below a folder algorithm.json's "include" array names (relative to dir). When not, *why is the
 * one line to show (caller frees). */
int hb_layout_has_implementations(const char *dir, char *const *files);
int hb_layout_counts(const char *dir, const char *path, const json_t *include, int has_impl,
	char **why);

/* ---- SUPERCOP trees (supercop.c): each crypto_hash/<primitive>/<implementation> folder with an
 * api.h, nested paths too, an implementation of the algorithm named after its primitive ---- */

typedef struct hb_supercop_impl {
	char *tree;          /* the tree's root, absolute */
	char *version;       /* its version file, "20260330" (NULL when absent) */
	char *operation;     /* crypto_hash */
	char *primitive;     /* sha256 */
	char *path;          /* crypto_hash/sha256/ref, relative to the tree */
	char *dir;           /* the implementation folder, absolute */
	char *implementors;  /* its implementors file, one line, or NULL */
	char sources_sha256[65]; /* of its files (names and contents, links followed) */
	char *language;      /* "c", "cpp" (C++ files) or "rust" (a Cargo project) */
	char **needs;        /* what it calls of other operations: "crypto_hashblocks/sha256" */
	char **libs;         /* SUPERCOP's own libraries it links, built from the tree: "keccak"
	                      * (XKCP's libkeccak.a), "cryptopp" (Crypto++) */
	char *expected_small, *expected_big; /* the primitive's checksumsmall and checksumbig */
	char *not_run;       /* why it cannot run on this machine, or NULL */
	int not_for_arch;    /* not_run because its architectures file leaves this machine out */
} hb_supercop_impl;

/* ---- Cargo.toml (cargo_deps.c) ---- */

/* Where Debian's librust-*-dev packages put their crates: a registry Cargo can use offline. */
#define HB_CARGO_REGISTRY "/usr/share/cargo/registry"
/* The [package] name of a Cargo.toml, or NULL. */
char *hb_cargo_package_name(const char *toml);
/* NULL when registry holds, for every [dependencies] entry of toml, a version its requirement
 * accepts; else why not, naming the crate and the version wanted (caller frees). */
char *hb_cargo_unmet(const char *toml, const char *registry);
/* Is program on the PATH? */
int hb_on_path(const char *program);

/* SUPERCOP's name for this machine's ABI (amd64, aarch64, …), as its okabi says it. */
const char *hb_supercop_abi(void);
/* The crypto_hash primitives of the SUPERCOP tree at tree, one algorithm each (*out: an array of
 * *nout, the caller's); what did not stop it is added to *warnings (a NULL-terminated list). */
int hb_supercop_load(hb_algorithm ***out, size_t *nout, char ***warnings, const char *tree);
/* Free an algorithm hb_supercop_load made (and what it holds). */
void hb_supercop_algorithm_free(hb_algorithm *alg);
void hb_supercop_impl_free(hb_supercop_impl *sc);
/* The file path stands for: itself, or where a file holding only a relative path leads (a
 * symbolic link checked out as such a file where links are off). Caller frees. */
char *hb_supercop_follow(const char *path);
/* The SHA-256 of the files below an implementation folder (names and contents, links followed). */
int hb_supercop_sources_sha256(char out[65], const char *dir);
/* The implementation folders (holding an api.h) below a primitive's folder, relative, sorted. */
int hb_supercop_impls(char ***out, const char *dir);
/* Whether the implementation folder's architectures file (if any) names this machine's ABI. */
int hb_supercop_for_this_abi(const char *dir);

/* ---- discovery (submission.c) and declared instances (declare.c), for the catalog and the
 * build ---- */

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
