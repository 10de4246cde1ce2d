/* supercop_rust.c — a SUPERCOP Rust implementation (a Cargo project) built offline against
 * Debian's packaged crates into a static library whose one C symbol is the implementation's
 * namespaced crypto_hash, so that try.c and the timed library link it as they link C. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hbbuild.h"

#define S_CARGO_LIMIT 300 /* do-part's killafter 300 */

/* The glue crate: the implementation's crypto_hash behind the C prototype of crypto_hash.h, as
 * SUPERCOP's rusthooks/crypto_hash puts it. */
static const char S_glue_rs[] =
	"// hashbench: the C entry point over a SUPERCOP Rust crypto_hash\n"
	"use std::convert::TryInto;\n"
	"use std::os::raw::{c_int, c_ulonglong};\n"
	"use std::slice;\n"
	"const CRYPTO_BYTES: usize = %u;\n"
	"#[no_mangle]\n"
	"pub unsafe extern \"C\" fn %s(c_out: *mut u8, c_m: *const u8, c_mlen: c_ulonglong) -> c_int {\n"
	"  let mlen: usize = c_mlen.try_into().unwrap();\n"
	"  let m = slice::from_raw_parts(c_m, mlen);\n"
	"  let out = slice::from_raw_parts_mut(c_out, CRYPTO_BYTES);\n"
	"  let out: &mut [u8; CRYPTO_BYTES] = out.try_into().unwrap();\n"
	"  crypto_hash::crypto_hash(out, m);\n"
	"  0\n"
	"}\n";

static const char S_glue_toml[] =
	"[package]\nname = \"hashbench_glue\"\nversion = \"0.1.0\"\nedition = \"2018\"\n\n"
	"[lib]\ncrate-type = [\"staticlib\"]\npath = \"lib.rs\"\n\n"
	"[dependencies]\ncrypto_hash = { path = \"..\", package = \"%s\" }\n\n"
	"[profile.release]\npanic = \"abort\"\n";

/* Cargo's own configuration: crates.io replaced by the local registry, never the network. */
static const char S_config_toml[] =
	"[source.crates-io]\nreplace-with = \"debian\"\n[source.debian]\ndirectory = \"%s\"\n"
	"[net]\noffline = true\n";

/* CRYPTO_BYTES of the copy's api.h; 0 when it names none. */
static unsigned S_bytes(const char *dir)
{
	char *api = hb_path_join(dir, "api.h"), *text, *p;
	hb_buf b;
	unsigned n = 0;
	if (hb_file_read_raw(&b, api) == 0) {
		text = strndup((const char *)b.data, b.len);
		if ((p = strstr(text, "CRYPTO_BYTES")) != NULL)
			n = (unsigned)strtoul(p + 12, NULL, 10);
		free(text);
		hb_buf_free(&b);
	}
	free(api);
	return n;
}

static int S_write(const char *dir, const char *name, const char *text)
{
	char *p = hb_path_join(dir, name);
	int rc = hb_mkdir_p(dir) == 0 ? hb_file_write_atomic(p, text, strlen(text)) : HB_ERROR;
	free(p);
	return rc;
}

int hb_sc_rust_build(char **log, char **error, const char *dir, const char *opi,
	const char *compiler, const char *archive)
{
	char *toml = hb_path_join(dir, "Cargo.toml"), *name = hb_cargo_package_name(toml);
	char *glue = hb_path_join(dir, "hashbench-glue"), *home = hb_path_join(dir, "hashbench-cargo");
	char *target = hb_path_join(dir, "hashbench-target"), *text = NULL, *output = NULL;
	char *lock = hb_path_join(dir, "Cargo.lock"), *built;
	unsigned bytes = S_bytes(dir);
	size_t n = strcspn(compiler, " \t");
	int rc = HB_ERROR, status;

	if (!name || !bytes) {
		*error = hb_sprintf("%s names no %s", name ? "api.h" : "Cargo.toml", name ?
			"CRYPTO_BYTES" : "[package] name");
		goto out;
	}
	/* the tree's lock file names crates.io's versions; the local registry has its own */
	unlink(lock);
	text = hb_sprintf(S_glue_rs, bytes, opi);
	rc = S_write(glue, "lib.rs", text);
	free(text);
	text = hb_sprintf(S_glue_toml, name);
	rc = rc || S_write(glue, "Cargo.toml", text);
	free(text);
	text = hb_sprintf(S_config_toml, HB_CARGO_REGISTRY);
	rc = rc || S_write(home, "config.toml", text);
	free(text);
	text = NULL;
	if (rc != 0) {
		*error = hb_strdup(hb_error_last());
		goto out;
	}
	{
		/* as do-part runs it: CC and CFLAGS from the line for any C a crate builds, the
		 * native CPU for rustc */
		char *cc = hb_sprintf("CC=%.*s", (int)n, compiler);
		char *cflags = hb_sprintf("CFLAGS=%s", compiler[n] ? compiler + n + 1 : "");
		char *ch = hb_sprintf("CARGO_HOME=%s", home), *ct = hb_sprintf("CARGO_TARGET_DIR=%s",
			target), *manifest = hb_path_join(glue, "Cargo.toml");
		char *argv[] = { (char *)"env", ch, ct, cc, cflags,
			(char *)"RUSTFLAGS=-C target-cpu=native", (char *)"cargo", (char *)"build", (char *)"-q",
			(char *)"--release", (char *)"--offline", (char *)"--manifest-path", manifest, NULL };
		status = hb_run_capture(&output, argv, S_CARGO_LIMIT);
		text = hb_sprintf("%s$ cargo build --release --offline (crates from %s)\n%s", *log ? *log :
			"", HB_CARGO_REGISTRY, output ? output : "");
		free(*log);
		*log = text;
		text = NULL;
		if (status != 0) {
			const char *e = output ? strstr(output, "error") : NULL;
			*error = status == HB_ETIMEOUT ? hb_sprintf("cargo build: no result after %d s",
				S_CARGO_LIMIT) : hb_sprintf("cargo build failed (exit status %d)%s%.*s", status,
				e ? ": " : "", e ? (int)strcspn(e, "\n") : 0, e ? e : "");
			rc = HB_ERROR;
		}
		free(cc);
		free(cflags);
		free(ch);
		free(ct);
		free(manifest);
	}
	if (rc == 0) {
		char *argv[] = { (char *)"cp", NULL, (char *)archive, NULL };
		built = hb_sprintf("%s/release/libhashbench_glue.a", target);
		argv[1] = built;
		free(output);
		output = NULL;
		if (hb_run_capture(&output, argv, 60) != 0) {
			*error = hb_sprintf("%s: could not be copied", built);
			rc = HB_ERROR;
		}
		free(built);
	}
out:
	free(output);
	free(toml);
	free(name);
	free(glue);
	free(home);
	free(target);
	free(lock);
	return rc;
}
